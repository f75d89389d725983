// Which of the others' cameras are on the stage when there are more than it holds (last-N, as Jitsi
// does): the pinned tile and the active speaker always are; a newcomer to the stage takes the place of
// whoever has been silent longest; everyone else keeps their place, so tiles do not jump about. Those
// off the stage are still heard, and their video is paused (sfu-layers.ts asks the SFU for none).

/** Tiles (ours included) the stage shows at most: fewer on a phone's narrow screen. */
export const STAGE_TILES = { wide: 16, narrow: 4 } as const;

interface StageChoice {
  speaker: string | null;
  pinned: string | null;
  /** When each peer was last heard (ms), to choose who leaves the stage for a new speaker. */
  lastSpoke: ReadonlyMap<string, number>;
}

/**
 * How many of the others fit beside our tile: all of them when they fit, else one place fewer, kept
 * for the tile that says how many more there are.
 */
export function stageRoom(others: number, tiles: number): number {
  return others + 1 <= tiles ? others : Math.max(1, tiles - 2);
}

/** The others on the stage, in their places: `previous` is what was on it, `peers` everyone in join order. */
export function chooseStage(previous: readonly string[], peers: readonly string[], choice: StageChoice, room: number): string[] {
  if (peers.length <= room) return [...peers];
  const present = new Set(peers);
  const stage = previous.filter((id) => present.has(id)).slice(0, room);
  for (const id of peers) {
    if (stage.length >= room) break;
    if (!stage.includes(id)) stage.push(id);
  }
  for (const wanted of [choice.pinned, choice.speaker]) {
    if (!wanted || !present.has(wanted) || stage.includes(wanted)) continue;
    let out = -1;
    stage.forEach((id, index) => {
      if (id === choice.pinned || id === choice.speaker) return;
      if (out < 0 || (choice.lastSpoke.get(id) ?? 0) < (choice.lastSpoke.get(stage[out]!) ?? 0)) out = index;
    });
    if (out >= 0) stage[out] = wanted;
  }
  return stage;
}
