// Mantine theme wired to the brand colours, and the --mooz-* variables emitted by Mantine itself so
// they exist in light and dark schemes alike.
import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';
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

export const theme = createTheme({
  primaryColor: 'mooz',
  primaryShade: { light: 6, dark: 5 },
  colors: { mooz, dark },
  black: '#2f2b3d',
  defaultRadius: 'md',
  cursorType: 'pointer',
  fontFamily: "Inter, 'Segoe UI', system-ui, -apple-system, Roboto, 'Helvetica Neue', Arial, sans-serif",
  headings: { fontWeight: '700' },
  focusRing: 'auto',
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: themeColorVariables(),
  light: { '--mooz-surface': '#f8f7fa', '--mooz-text': '#2f2b3d' },
  dark: { '--mooz-surface': '#25293c', '--mooz-text': '#e1def5' },
});
