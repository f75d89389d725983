import { describe, expect, it } from 'vitest';
import { barHeight, floatingGap, frameOf, topMenuHeight } from './frame';

const vertical = { layout: 'vertical', navbarType: 'floating', menuCollapsed: false } as const;

describe('the frame the layout preferences give', () => {
  it('defaults to a side menu under a floating bar', () => {
    expect(frameOf(vertical, false)).toEqual({
      horizontal: false,
      showBar: true,
      collapsed: false,
      navbarType: 'floating',
      headerHeight: barHeight + floatingGap,
    });
  });

  it('puts the top menu under the bar in the horizontal layout, where the menu cannot collapse', () => {
    const frame = frameOf({ layout: 'horizontal', navbarType: 'sticky', menuCollapsed: true }, false);
    expect(frame).toMatchObject({ horizontal: true, collapsed: false, headerHeight: barHeight + topMenuHeight });
  });

  it('hides the bar but keeps the top menu when the navbar is hidden', () => {
    expect(frameOf({ ...vertical, navbarType: 'hidden' }, false)).toMatchObject({ showBar: false, headerHeight: 0 });
    expect(frameOf({ layout: 'horizontal', navbarType: 'hidden', menuCollapsed: false }, false)).toMatchObject({
      showBar: false,
      headerHeight: topMenuHeight + floatingGap,
    });
  });

  it('gives phones the bar and the menu drawer whatever the layout', () => {
    expect(frameOf({ layout: 'horizontal', navbarType: 'hidden', menuCollapsed: true }, true)).toEqual({
      horizontal: false,
      showBar: true,
      collapsed: false,
      navbarType: 'static',
      headerHeight: barHeight,
    });
  });
});
