// The product's theme colours, defined once. The boot script writes them as --mooz-* CSS variables
// (so the loading screen is on-brand before Mantine loads) and the Mantine theme builds its
// primary palette from the same values.

/** Ten shades, lightest first; shade 6 is the brand primary, as Mantine expects. */
export const primaryShades = [
  '#f1efff',
  '#e0dcfd',
  '#c0b8f8',
  '#9e92f3',
  '#8374ef',
  '#7464ec',
  '#6c5ce7',
  '#5a4bd0',
  '#4f42b9',
  '#4236a3',
] as const;

const themeColors = {
  primary: primaryShades[6],
  secondary: '#808390',
  success: '#28c76f',
  danger: '#ea5455',
  warning: '#ff9f43',
  info: '#00bad1',
  dark: '#2f2b3d',
} as const;

/** The declarations for :root; each colour also gets a ~10% "light" tint for soft backgrounds. */
export function themeColorVariables(): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [name, value] of Object.entries(themeColors)) {
    vars[`--mooz-${name}`] = value;
    vars[`--mooz-${name}-light`] = `color-mix(in srgb, var(--mooz-${name}) 10%, transparent)`;
  }
  return vars;
}

export function applyThemeColorVariables(root: HTMLElement): void {
  for (const [name, value] of Object.entries(themeColorVariables())) root.style.setProperty(name, value);
}
