import { describe, expect, it } from 'vitest';
import { isSearchShortcut } from './search';

const key = (init: KeyboardEventInit, target: HTMLElement = document.body) => {
  const event = new KeyboardEvent('keydown', { bubbles: true, ...init });
  Object.defineProperty(event, 'target', { value: target });
  return event;
};

describe('the search shortcut', () => {
  it('is Ctrl+K, Cmd+K and "/" (with or without Shift, as some layouts type it)', () => {
    expect(isSearchShortcut(key({ key: 'k', ctrlKey: true }))).toBe(true);
    expect(isSearchShortcut(key({ key: 'K', metaKey: true }))).toBe(true);
    expect(isSearchShortcut(key({ key: '/' }))).toBe(true);
    expect(isSearchShortcut(key({ key: '/', shiftKey: true }))).toBe(true);
  });

  it('is not K alone, Ctrl+Shift+K, Alt combinations or Ctrl+/', () => {
    expect(isSearchShortcut(key({ key: 'k' }))).toBe(false);
    expect(isSearchShortcut(key({ key: 'k', ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(isSearchShortcut(key({ key: 'k', ctrlKey: true, altKey: true }))).toBe(false);
    expect(isSearchShortcut(key({ key: '/', altKey: true }))).toBe(false);
    expect(isSearchShortcut(key({ key: '/', ctrlKey: true }))).toBe(false);
  });

  it('leaves what is typed in a field, a text area, a select or editable text alone', () => {
    for (const tag of ['input', 'textarea', 'select']) {
      expect(isSearchShortcut(key({ key: '/' }, document.createElement(tag)))).toBe(false);
      expect(isSearchShortcut(key({ key: 'k', ctrlKey: true }, document.createElement(tag)))).toBe(false);
    }
    const editable = document.createElement('div');
    editable.contentEditable = 'true';
    // jsdom does not compute isContentEditable from the attribute.
    Object.defineProperty(editable, 'isContentEditable', { value: true });
    expect(isSearchShortcut(key({ key: '/' }, editable))).toBe(false);
  });
});
