import { describe, expect, it } from 'vitest';
import { commandFor, focusKindOf, nextRate } from './shortcuts';

describe('player keyboard shortcuts', () => {
  it('maps the usual video keys when nothing in particular has the focus', () => {
    expect(commandFor({ key: ' ' }, 'other')).toEqual({ kind: 'toggle-play' });
    expect(commandFor({ key: 'k' }, 'other')).toEqual({ kind: 'toggle-play' });
    expect(commandFor({ key: 'j' }, 'other')).toEqual({ kind: 'seek', by: -10 });
    expect(commandFor({ key: 'l' }, 'other')).toEqual({ kind: 'seek', by: 10 });
    expect(commandFor({ key: 'ArrowLeft' }, 'other')).toEqual({ kind: 'seek', by: -5 });
    expect(commandFor({ key: 'ArrowRight' }, 'other')).toEqual({ kind: 'seek', by: 5 });
    expect(commandFor({ key: 'f' }, 'other')).toEqual({ kind: 'fullscreen' });
    expect(commandFor({ key: 'm' }, 'other')).toEqual({ kind: 'mute' });
    expect(commandFor({ key: '<' }, 'other')).toEqual({ kind: 'speed', step: -1 });
    expect(commandFor({ key: '>' }, 'other')).toEqual({ kind: 'speed', step: 1 });
    expect(commandFor({ key: '?' }, 'other')).toEqual({ kind: 'help' });
  });

  it('takes letters with caps lock or shift as the same letters', () => {
    expect(commandFor({ key: 'K' }, 'other')).toEqual({ kind: 'toggle-play' });
    expect(commandFor({ key: 'F' }, 'other')).toEqual({ kind: 'fullscreen' });
  });

  it('does nothing while the user types in a field', () => {
    for (const key of [' ', 'k', 'j', 'ArrowLeft', 'f', 'm', '<', '?']) expect(commandFor({ key }, 'text')).toBeNull();
  });

  it('leaves space and the arrows to a focused control, but letters still work there', () => {
    expect(commandFor({ key: ' ' }, 'control')).toBeNull();
    expect(commandFor({ key: 'ArrowRight' }, 'control')).toBeNull();
    expect(commandFor({ key: 'k' }, 'control')).toEqual({ kind: 'toggle-play' });
  });

  it('leaves the browser its own shortcuts (with Ctrl, Cmd or Alt) and unknown keys', () => {
    expect(commandFor({ key: 'f', ctrlKey: true }, 'other')).toBeNull();
    expect(commandFor({ key: 'l', metaKey: true }, 'other')).toBeNull();
    expect(commandFor({ key: 'ArrowLeft', altKey: true }, 'other')).toBeNull();
    expect(commandFor({ key: 'x' }, 'other')).toBeNull();
    expect(commandFor({ key: 'Enter' }, 'other')).toBeNull();
    expect(commandFor({ key: ',' }, 'other')).toBeNull();
  });
});

describe('what has the focus', () => {
  const element = (html: string) => {
    document.body.innerHTML = html;
    return document.body.querySelector('[data-target]')!;
  };

  it('tells fields, controls and the rest apart', () => {
    expect(focusKindOf(element('<input data-target>'))).toBe('text');
    expect(focusKindOf(element('<textarea data-target></textarea>'))).toBe('text');
    expect(focusKindOf(element('<div contenteditable="true"><span data-target>x</span></div>'))).toBe('text');
    expect(focusKindOf(element('<button data-target>Go</button>'))).toBe('control');
    expect(focusKindOf(element('<div role="radiogroup"><label role="radio" data-target>1×</label></div>'))).toBe('control');
    expect(focusKindOf(element('<a href="/x"><span data-target>x</span></a>'))).toBe('control');
    expect(focusKindOf(element('<video data-target></video>'))).toBe('other');
    expect(focusKindOf(document.body)).toBe('other');
    expect(focusKindOf(null)).toBe('other');
  });
});

describe('speeds', () => {
  it('steps along 0.75, 1, 1.25, 1.5, 1.75, 2 and stops at the ends', () => {
    expect(nextRate(1, 1)).toBe(1.25);
    expect(nextRate(1, -1)).toBe(0.75);
    expect(nextRate(2, 1)).toBe(2);
    expect(nextRate(0.75, -1)).toBe(0.75);
  });

  it('moves a speed off the list (set by the browser menu) to its neighbour', () => {
    expect(nextRate(1.1, 1)).toBe(1.25);
    expect(nextRate(1.1, -1)).toBe(1);
    expect(nextRate(0.5, 1)).toBe(0.75);
    expect(nextRate(3, -1)).toBe(2);
  });
});
