// Where a bookmark goes when moved by the keyboard or dropped after a drag.
import { moveItem } from '../../lib/layout-state';

export type Orientation = 'vertical' | 'horizontal';

/**
 * The step (-1 earlier, +1 later) an Alt+arrow key asks for, or 0 for any other key. Up and down
 * work in both orientations; left and right only in a row, mirrored when the page runs right to left.
 */
export function stepOfKey(key: string, altKey: boolean, orientation: Orientation, rtl: boolean): -1 | 0 | 1 {
  if (!altKey) return 0;
  if (key === 'ArrowUp') return -1;
  if (key === 'ArrowDown') return 1;
  if (orientation === 'horizontal' && (key === 'ArrowLeft' || key === 'ArrowRight')) {
    return (key === 'ArrowRight') !== rtl ? 1 : -1;
  }
  return 0;
}

/** The ids after moving `id` one step, or null when it cannot move that way. */
export function stepped(ids: readonly string[], id: string, step: -1 | 1): string[] | null {
  const from = ids.indexOf(id);
  const to = from + step;
  if (from === -1 || to < 0 || to >= ids.length) return null;
  return moveItem(ids, from, to);
}

/** The ids after dropping `dragged` before or after `target`, or null when nothing changes. */
export function dropped(ids: readonly string[], dragged: string, target: string, after: boolean): string[] | null {
  if (dragged === target) return null;
  const without = ids.filter((id) => id !== dragged);
  const at = without.indexOf(target);
  if (at === -1 || !ids.includes(dragged)) return null;
  const next = [...without.slice(0, at + (after ? 1 : 0)), dragged, ...without.slice(at + (after ? 1 : 0))];
  return next.every((id, index) => id === ids[index]) ? null : next;
}
