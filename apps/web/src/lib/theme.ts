// Mantine theme wired to the brand colours, and the --mooz-* variables emitted by Mantine itself so
// they exist in light and dark schemes alike.
import { createTheme, DEFAULT_THEME, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';
import { primaryShades, themeColorVariables } from './brand-colors';

const mooz: MantineColorsTuple = [...primaryShades];

// Mantine paints cards with dark[7] and inputs with dark[6]; these are the Mooz night tones.
const dark: MantineColorsTuple = [
  '#e1def5',
  '#cfcce4',
  '#b0acc7',
  '#8f8ca8',
  '#6f6b8a',
  '#4a4e69',
  '#3a3e56',
  '#2f3349',
  '#25293c',
  '#1c1f2e',
];

/**
 * Colours that text can be read in (WCAG AA, 4.5:1), measured by the accessibility e2e spec with axe.
 * Mantine's status colours at their usual shade are too light for white text on a fill, and for their
 * own text on white or on a light variant's tint; each colour used here gets a darker `ink` for text in
 * the light skin and a darker `fill` under white text in both skins. The dark skin's own tints are fine.
 */
const palette = DEFAULT_THEME.colors;
const readable: Record<string, { ink: string; fill: string; fillHover: string }> = {
  mooz: { ink: primaryShades[7], fill: primaryShades[6], fillHover: primaryShades[7] },
  red: { ink: palette.red[9], fill: palette.red[9], fillHover: '#a61e1e' },
  orange: { ink: '#a84700', fill: '#b54c00', fillHover: '#99460a' },
  // A filled yellow keeps its colour and takes dark text (autoContrast where it is used).
  yellow: { ink: '#8a6100', fill: palette.yellow[6], fillHover: palette.yellow[7] },
  green: { ink: '#237a35', fill: '#237a35', fillHover: '#1a7431' },
  teal: { ink: palette.teal[9], fill: palette.teal[9], fillHover: '#066649' },
  cyan: { ink: palette.cyan[9], fill: palette.cyan[9], fillHover: '#095c6b' },
  gray: { ink: palette.gray[7], fill: palette.gray[7], fillHover: palette.gray[8] },
};

function readableVariables(scheme: 'light' | 'dark'): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [name, { ink, fill, fillHover }] of Object.entries(readable)) {
    vars[`--mantine-color-${name}-filled`] = fill;
    vars[`--mantine-color-${name}-filled-hover`] = fillHover;
    if (scheme === 'light') {
      vars[`--mantine-color-${name}-text`] = ink;
      vars[`--mantine-color-${name}-light-color`] = ink;
      vars[`--mantine-color-${name}-outline`] = ink;
    }
  }
  return vars;
}

export const theme = createTheme({
  primaryColor: 'mooz',
  // Shade 6 in both skins: white text on shade 5 reads at 4.4:1, on shade 6 at 4.9:1.
  primaryShade: { light: 6, dark: 6 },
  colors: { mooz, dark },
  black: '#2f2b3d',
  defaultRadius: 'md',
  cursorType: 'pointer',
  fontFamily: "Inter, 'Segoe UI', system-ui, -apple-system, Roboto, 'Helvetica Neue', Arial, sans-serif",
  headings: { fontWeight: '700' },
  focusRing: 'auto',
  components: {
    // The placeholder Mantine puts first in a menu is a bare focusable div, not a menu item, inside role="menu".
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
  },
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: themeColorVariables(),
  light: {
    '--mooz-surface': '#f8f7fa',
    '--mooz-text': '#2f2b3d',
    ...readableVariables('light'),
    // Mantine's gray 6 reads at 3.3:1 on white; this grey keeps the night palette's violet cast.
    '--mantine-color-dimmed': '#676570',
    '--mantine-color-error': 'var(--mantine-color-red-text)',
  },
  dark: {
    '--mooz-surface': '#25293c',
    '--mooz-text': '#e1def5',
    ...readableVariables('dark'),
    // Brand text and links on the night surfaces. A card is dark[6] (#3a3e56): shade 3 reads there at
    // 3.9:1 (4.7:1 on the page's dark[7]), shade 2 at 5.7:1, so both use shade 2.
    '--mantine-color-mooz-text': 'var(--mantine-color-mooz-2)',
    '--mantine-color-anchor': 'var(--mantine-color-mooz-2)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});
