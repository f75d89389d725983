import { describe, expect, it } from 'vitest';
import { dropped, stepOfKey, stepped } from './reorder';

describe('moving a bookmark by keyboard', () => {
  it('Alt+Up and Alt+Down move earlier and later in either orientation', () => {
    expect(stepOfKey('ArrowUp', true, 'vertical', false)).toBe(-1);
    expect(stepOfKey('ArrowDown', true, 'horizontal', true)).toBe(1);
  });

  it('Alt+Left and Alt+Right move along a row, mirrored right to left, and do nothing in a column', () => {
    expect(stepOfKey('ArrowRight', true, 'horizontal', false)).toBe(1);
    expect(stepOfKey('ArrowLeft', true, 'horizontal', false)).toBe(-1);
    expect(stepOfKey('ArrowRight', true, 'horizontal', true)).toBe(-1);
    expect(stepOfKey('ArrowLeft', true, 'horizontal', true)).toBe(1);
    expect(stepOfKey('ArrowLeft', true, 'vertical', false)).toBe(0);
  });

  it('arrows without Alt, and other keys, are left alone', () => {
    expect(stepOfKey('ArrowDown', false, 'vertical', false)).toBe(0);
    expect(stepOfKey('Enter', true, 'vertical', false)).toBe(0);
  });

  it('steps one place and refuses to leave the list', () => {
    expect(stepped(['a', 'b', 'c'], 'b', -1)).toEqual(['b', 'a', 'c']);
    expect(stepped(['a', 'b', 'c'], 'b', 1)).toEqual(['a', 'c', 'b']);
    expect(stepped(['a', 'b', 'c'], 'a', -1)).toBeNull();
    expect(stepped(['a', 'b', 'c'], 'c', 1)).toBeNull();
    expect(stepped(['a', 'b'], 'z', 1)).toBeNull();
  });
});

describe('dropping a dragged bookmark', () => {
  it('puts it before or after the bookmark it was dropped on', () => {
    expect(dropped(['a', 'b', 'c'], 'c', 'a', false)).toEqual(['c', 'a', 'b']);
    expect(dropped(['a', 'b', 'c'], 'a', 'c', true)).toEqual(['b', 'c', 'a']);
    expect(dropped(['a', 'b', 'c'], 'a', 'b', true)).toEqual(['b', 'a', 'c']);
  });

  it('changes nothing when dropped on itself or where it already is', () => {
    expect(dropped(['a', 'b', 'c'], 'b', 'b', true)).toBeNull();
    expect(dropped(['a', 'b', 'c'], 'a', 'b', false)).toBeNull();
    expect(dropped(['a', 'b', 'c'], 'x', 'b', false)).toBeNull();
  });
});
