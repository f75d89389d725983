// Keys typed right after Ctrl+K, before the search field is there or has drawn them, all land in the query.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { layoutStateDefaults, useLayoutState } from '../../lib/layout-state';
import { keepTypedKeys } from './search';

const press = (target: EventTarget, key: string) => {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
  target.dispatchEvent(event);
  return event.defaultPrevented;
};

describe('keys typed while the search opens', () => {
  let field: HTMLInputElement;
  beforeEach(() => {
    useLayoutState.setState({ ...layoutStateDefaults, query: 'java' });
    field = document.createElement('input');
    field.dataset.searchField = '';
    document.body.append(field);
  });
  afterEach(() => {
    field.remove();
    press(document.body, 'Escape');
  });

  it('replace the last query, and the field takes over once it shows them', () => {
    keepTypedKeys();
    expect(press(document.body, 'd')).toBe(true);
    expect(useLayoutState.getState().query).toBe('d');
    // The field has focus but React has not drawn "d" into it yet: the key is still kept for it.
    expect(press(field, 'e')).toBe(true);
    expect(useLayoutState.getState().query).toBe('de');
    field.value = 'de';
    // Drawn: the field types the next key itself.
    expect(press(field, 's')).toBe(false);
    expect(press(document.body, 'x')).toBe(false);
    expect(useLayoutState.getState().query).toBe('de');
  });

  it('leave a field that gets focus before any key to type them itself', () => {
    keepTypedKeys();
    expect(press(field, 'p')).toBe(false);
    expect(useLayoutState.getState().query).toBe('java');
  });
});
