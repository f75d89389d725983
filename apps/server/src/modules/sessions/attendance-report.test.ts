import { describe, expect, it } from 'vitest';
import { presentMs } from './attendance-report';

const at = (min: number) => new Date(Date.UTC(2030, 0, 1, 10, min));
const session = { startsAt: at(0), endsAt: at(60) };
const MIN = 60_000;

describe('time present in a session', () => {
  it('counts only the session span, overlapping visits once, and closes an open visit at the end', () => {
    expect(presentMs([{ joinedAt: at(-15), leftAt: at(10) }], session)).toBe(10 * MIN);
    expect(presentMs([{ joinedAt: at(0), leftAt: at(30) }, { joinedAt: at(20), leftAt: at(40) }, { joinedAt: at(50), leftAt: null }], session)).toBe(50 * MIN);
    expect(presentMs([{ joinedAt: at(10), leftAt: at(50) }, { joinedAt: at(20), leftAt: at(30) }], session)).toBe(40 * MIN);
    expect(presentMs([{ joinedAt: at(70), leftAt: at(80) }], session)).toBe(0);
  });
});
