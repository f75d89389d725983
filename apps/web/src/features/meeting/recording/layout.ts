// Where each tile goes in the recording's picture, as plain arithmetic (no canvas, no DOM), so the
// layouts can be tested and the composer only draws. A shared screen is large with the cameras in a
// strip beside it; without one, the cameras fill a grid. The picture is not mirrored for right-to-left
// languages: it is a video, watched later by anyone.

interface Size {
  width: number;
  height: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TileSpec {
  key: string;
  kind: 'camera' | 'screen';
}

interface PlacedTile {
  key: string;
  kind: 'camera' | 'screen';
  rect: Rect;
}

/** The recording's frame: 720p, the size the cameras are captured at (contract: ideal height 720). */
export const recordingSize: Size = { width: 1280, height: 720 };
/** Space around the picture and between tiles, in canvas pixels. */
export const tileGap = 8;
/** The share of the width the camera strip takes beside a shared screen. */
const stripShare = 0.22;
const tileAspect = 16 / 9;

/**
 * `count` tiles of 16:9 in `box`: the number of columns that makes them largest, each row centred
 * (a last row that is not full too), the whole block centred in the box.
 */
export function gridIn(box: Rect, count: number, gap = tileGap): Rect[] {
  if (count <= 0 || box.width <= 0 || box.height <= 0) return [];
  let best = { columns: 1, rows: count, width: 0, height: 0 };
  for (let columns = 1; columns <= count; columns++) {
    const rows = Math.ceil(count / columns);
    const cellWidth = (box.width - gap * (columns - 1)) / columns;
    const cellHeight = (box.height - gap * (rows - 1)) / rows;
    if (cellWidth <= 0 || cellHeight <= 0) continue;
    const width = Math.min(cellWidth, cellHeight * tileAspect);
    if (width > best.width) best = { columns, rows, width, height: width / tileAspect };
  }
  const { columns, rows, width, height } = best;
  const blockHeight = rows * height + (rows - 1) * gap;
  const top = box.y + (box.height - blockHeight) / 2;
  const rects: Rect[] = [];
  for (let row = 0; row < rows; row++) {
    const inRow = Math.min(columns, count - row * columns);
    const rowWidth = inRow * width + (inRow - 1) * gap;
    const left = box.x + (box.width - rowWidth) / 2;
    for (let column = 0; column < inRow; column++) {
      rects.push({ x: left + column * (width + gap), y: top + row * (height + gap), width, height });
    }
  }
  return rects;
}

/** Every tile's place in a frame of `size`: screens large with a strip of cameras beside them, or a grid of cameras. */
export function layoutTiles(tiles: readonly TileSpec[], size: Size = recordingSize, gap = tileGap): PlacedTile[] {
  const screens = tiles.filter((tile) => tile.kind === 'screen');
  const cameras = tiles.filter((tile) => tile.kind === 'camera');
  const frame: Rect = { x: gap, y: gap, width: size.width - 2 * gap, height: size.height - 2 * gap };
  const place = (group: TileSpec[], rects: Rect[]) => group.map((tile, i) => ({ key: tile.key, kind: tile.kind, rect: rects[i]! }));
  if (screens.length === 0) return place(cameras, gridIn(frame, cameras.length, gap));
  if (cameras.length === 0) return place(screens, gridIn(frame, screens.length, gap));
  const stripWidth = Math.round(frame.width * stripShare);
  const stage: Rect = { x: frame.x, y: frame.y, width: frame.width - stripWidth - gap, height: frame.height };
  const strip: Rect = { x: stage.x + stage.width + gap, y: frame.y, width: stripWidth, height: frame.height };
  // Screens are drawn whole (contain), so they get the stage as it is; the strip's tiles stack at its top.
  const stripRects = gridIn(strip, cameras.length, gap);
  const stripTop = Math.min(...stripRects.map((rect) => rect.y));
  const lifted = stripRects.map((rect) => ({ ...rect, y: rect.y - (stripTop - strip.y) }));
  return [...place(screens, screens.length === 1 ? [stage] : gridIn(stage, screens.length, gap)), ...place(cameras, lifted)];
}

/** The part of a source of `source` size drawn into `target` so it fills it, cropped evenly (cameras). */
export function coverCrop(source: Size, target: Size): Rect {
  const scale = Math.max(target.width / source.width, target.height / source.height);
  const width = target.width / scale;
  const height = target.height / scale;
  return { x: (source.width - width) / 2, y: (source.height - height) / 2, width, height };
}

/** Where a source of `source` size goes inside `target` to be seen whole, centred (screens). */
export function containRect(source: Size, target: Rect): Rect {
  const scale = Math.min(target.width / source.width, target.height / source.height);
  const width = source.width * scale;
  const height = source.height * scale;
  return { x: target.x + (target.width - width) / 2, y: target.y + (target.height - height) / 2, width, height };
}

/**
 * Where a tile's name caption goes in the recording: at the tile's top, inset by `padding`. At the
 * bottom (as in the meeting) a player's own controls cover it whenever they show.
 */
export function captionRect(tile: Rect, size: Size, padding: number): Rect {
  return { x: tile.x + padding, y: tile.y + padding, ...size };
}
