// Where the recording puts each tile: a grid of cameras, or a shared screen large with the cameras in a
// strip beside it; and how a video is fitted into its place.
import { describe, expect, it } from 'vitest';
import { captionRect, containRect, coverCrop, gridIn, layoutTiles, recordingSize, tileGap, type Rect, type TileSpec } from './layout';

const cameras = (count: number): TileSpec[] => Array.from({ length: count }, (_, i) => ({ key: `camera-${i}`, kind: 'camera' }));
const screens = (count: number): TileSpec[] => Array.from({ length: count }, (_, i) => ({ key: `screen-${i}`, kind: 'screen' }));
const frame: Rect = { x: tileGap, y: tileGap, width: recordingSize.width - 2 * tileGap, height: recordingSize.height - 2 * tileGap };

const inside = (rect: Rect, box: Rect) =>
  rect.x >= box.x - 1e-6 && rect.y >= box.y - 1e-6 && rect.x + rect.width <= box.x + box.width + 1e-6 && rect.y + rect.height <= box.y + box.height + 1e-6;
const overlap = (a: Rect, b: Rect) => a.x < b.x + b.width - 1e-6 && b.x < a.x + a.width - 1e-6 && a.y < b.y + b.height - 1e-6 && b.y < a.y + a.height - 1e-6;
const aspect = (rect: Rect) => rect.width / rect.height;

describe('the camera grid', () => {
  it('gives one camera the whole frame at 16:9, centred', () => {
    const [only] = layoutTiles(cameras(1));
    expect(only!.rect.height).toBeCloseTo(frame.height);
    expect(aspect(only!.rect)).toBeCloseTo(16 / 9);
    expect(only!.rect.x - frame.x).toBeCloseTo(frame.x + frame.width - (only!.rect.x + only!.rect.width));
  });

  it('puts two side by side, four in two rows of two', () => {
    const two = layoutTiles(cameras(2)).map((tile) => tile.rect);
    expect(two[0]!.y).toBeCloseTo(two[1]!.y);
    expect(two[0]!.x).toBeLessThan(two[1]!.x);
    const four = layoutTiles(cameras(4)).map((tile) => tile.rect);
    expect(new Set(four.map((rect) => Math.round(rect.y))).size).toBe(2);
    expect(new Set(four.map((rect) => Math.round(rect.x))).size).toBe(2);
  });

  it('centres a last row that is not full', () => {
    const three = layoutTiles(cameras(3)).map((tile) => tile.rect);
    const [a, b, c] = three as [Rect, Rect, Rect];
    expect(a.y).toBeCloseTo(b.y);
    expect(c.y).toBeGreaterThan(a.y);
    expect(c.x + c.width / 2).toBeCloseTo(recordingSize.width / 2);
  });

  it.each([1, 2, 3, 5, 7, 10, 16, 25])('places %i cameras inside the frame, 16:9, none over another, all the same size', (count) => {
    const rects = layoutTiles(cameras(count)).map((tile) => tile.rect);
    expect(rects).toHaveLength(count);
    for (const [i, rect] of rects.entries()) {
      expect(inside(rect, frame)).toBe(true);
      expect(aspect(rect)).toBeCloseTo(16 / 9);
      expect(rect.width).toBeCloseTo(rects[0]!.width);
      for (const other of rects.slice(i + 1)) expect(overlap(rect, other)).toBe(false);
    }
  });

  it('keeps each tile with its key, in the order given', () => {
    expect(layoutTiles(cameras(3)).map((tile) => tile.key)).toEqual(['camera-0', 'camera-1', 'camera-2']);
  });
});

describe('a shared screen with the cameras beside it', () => {
  it('gives the screen most of the frame and stacks the cameras in a strip at the side, from the top', () => {
    const placed = layoutTiles([...screens(1), ...cameras(3)]);
    const screen = placed.find((tile) => tile.kind === 'screen')!.rect;
    const strip = placed.filter((tile) => tile.kind === 'camera').map((tile) => tile.rect);
    expect(screen).toMatchObject({ x: frame.x, y: frame.y, height: frame.height });
    expect(screen.width).toBeGreaterThan(frame.width * 0.7);
    for (const rect of strip) {
      expect(rect.x).toBeGreaterThanOrEqual(screen.x + screen.width + tileGap);
      expect(inside(rect, frame)).toBe(true);
      expect(aspect(rect)).toBeCloseTo(16 / 9);
    }
    expect(strip[0]!.y).toBeCloseTo(frame.y);
    expect(strip[1]!.y).toBeGreaterThan(strip[0]!.y);
    expect(strip[2]!.y).toBeGreaterThan(strip[1]!.y);
  });

  it('fits many cameras in the strip without overlapping the screen or each other', () => {
    const placed = layoutTiles([...screens(1), ...cameras(12)]);
    const screen = placed[0]!.rect;
    const strip = placed.slice(1).map((tile) => tile.rect);
    for (const [i, rect] of strip.entries()) {
      expect(inside(rect, frame)).toBe(true);
      expect(overlap(rect, screen)).toBe(false);
      for (const other of strip.slice(i + 1)) expect(overlap(rect, other)).toBe(false);
    }
  });

  it('shares the stage between two screens', () => {
    const placed = layoutTiles([...screens(2), ...cameras(2)]);
    const [first, second] = placed.filter((tile) => tile.kind === 'screen').map((tile) => tile.rect) as [Rect, Rect];
    expect(overlap(first, second)).toBe(false);
    const stripLeft = Math.min(...placed.filter((tile) => tile.kind === 'camera').map((tile) => tile.rect.x));
    expect(Math.max(first.x + first.width, second.x + second.width)).toBeLessThanOrEqual(stripLeft - tileGap + 1e-6);
  });

  it('gives a screen alone (no cameras) the whole frame', () => {
    const [only] = layoutTiles(screens(1));
    expect(only!.rect.height).toBeCloseTo(frame.height);
  });
});

describe('fitting a video into its place', () => {
  it('crops a camera evenly to fill its tile', () => {
    // 4:3 into 16:9: the top and bottom are cut by the same amount.
    const crop = coverCrop({ width: 640, height: 480 }, { width: 320, height: 180 });
    expect(crop.width).toBeCloseTo(640);
    expect(crop.height).toBeCloseTo(360);
    expect(crop.y).toBeCloseTo(60);
    expect(crop.x).toBeCloseTo(0);
  });

  it('shows a screen whole, centred with bars', () => {
    const rect = containRect({ width: 1000, height: 1000 }, { x: 10, y: 20, width: 400, height: 200 });
    expect(rect).toEqual({ x: 110, y: 20, width: 200, height: 200 });
  });

  it('places nothing when there is nothing, or no room', () => {
    expect(gridIn(frame, 0)).toEqual([]);
    expect(gridIn({ x: 0, y: 0, width: 0, height: 100 }, 3)).toEqual([]);
    expect(layoutTiles([])).toEqual([]);
  });
});

describe('a tile\'s caption in the recording', () => {
  it('sits at the top of its tile, clear of a player\'s controls along the bottom', () => {
    const [screen] = layoutTiles(screens(1));
    const caption = captionRect(screen!.rect, { width: 200, height: 30 }, 10);
    expect(inside(caption, screen!.rect)).toBe(true);
    // The player's controls take the bottom fifth of the picture, or more on a small player.
    expect(caption.y + caption.height).toBeLessThan(screen!.rect.y + screen!.rect.height * 0.5);
  });
});
