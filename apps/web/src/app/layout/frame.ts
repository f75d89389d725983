// The frame's measurements from the layout preferences: which bars show and how tall the header is.
import type { LayoutPreferences } from '../../lib/layout-preferences';

interface Frame {
  /** The top menu replaces the side menu (never on phones, which keep the menu drawer). */
  horizontal: boolean;
  /** The bar with search, language, settings and the user menu. */
  showBar: boolean;
  /** Icons-only side menu. */
  collapsed: boolean;
  navbarType: LayoutPreferences['navbarType'];
  /** Pixels the header takes above the content; 0 without a header. */
  headerHeight: number;
}

export const barHeight = 64;
export const topMenuHeight = 52;
/** A floating bar keeps this gap above it. */
export const floatingGap = 12;

export function frameOf(
  preferences: Pick<LayoutPreferences, 'layout' | 'navbarType' | 'menuCollapsed'>,
  isMobile: boolean,
): Frame {
  const horizontal = preferences.layout === 'horizontal' && !isMobile;
  // A phone's bar holds the menu button: hiding it would leave no way to the menu.
  const navbarType = isMobile && preferences.navbarType === 'hidden' ? 'static' : preferences.navbarType;
  const showBar = navbarType !== 'hidden';
  const rows = (showBar ? barHeight : 0) + (horizontal ? topMenuHeight : 0);
  const floating = navbarType === 'floating' || (!showBar && horizontal);
  return {
    horizontal,
    showBar,
    collapsed: preferences.menuCollapsed && !isMobile && !horizontal,
    navbarType,
    headerHeight: rows === 0 ? 0 : rows + (floating ? floatingGap : 0),
  };
}
