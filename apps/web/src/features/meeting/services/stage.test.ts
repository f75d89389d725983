import { describe, expect, it } from 'vitest';
import { chooseStage, stageRoom } from './stage';

const quiet = { speaker: null, pinned: null, lastSpoke: new Map<string, number>() };
const people = (count: number) => Array.from({ length: count }, (_, i) => `p${i}`);

describe('the stage of a large class', () => {
  it('shows everyone while they fit, and keeps a place for "more" once they do not', () => {
    expect(stageRoom(15, 16)).toBe(15);
    expect(stageRoom(16, 16)).toBe(14);
    expect(chooseStage([], people(5), quiet, 5)).toEqual(people(5));
    expect(chooseStage([], people(30), quiet, 14)).toEqual(people(14));
  });

  it('brings the active speaker on in place of whoever was silent longest, the others keeping their places', () => {
    const before = people(4);
    const lastSpoke = new Map([
      ['p0', 5],
      ['p1', 1],
      ['p2', 9],
      ['p3', 7],
    ]);
    expect(chooseStage(before, people(10), { speaker: 'p8', pinned: null, lastSpoke }, 4)).toEqual(['p0', 'p8', 'p2', 'p3']);
  });

  it('always keeps the pinned tile and the speaker on, and fills places left by those who left', () => {
    const stage = chooseStage(['p0', 'p1', 'p2'], people(10), { speaker: 'p7', pinned: 'p9', lastSpoke: new Map() }, 3);
    expect(stage).toContain('p7');
    expect(stage).toContain('p9');
    expect(chooseStage(['p0', 'p1', 'p2'], ['p0', 'p2', 'p3', 'p4', 'p5'], quiet, 3)).toEqual(['p0', 'p2', 'p3']);
  });
});
