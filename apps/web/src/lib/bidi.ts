// Our four languages are written left to right, but the layout can run right to left. In a
// right-to-left paragraph, the neutral characters at the edges of left-to-right text (punctuation,
// numbers, "PM", "UTC") are placed by the paragraph's direction and the text scrambles:
// "!Welcome back, Sam", "PM – 07:00 PM UTC 03:00". Each translated or formatted run is therefore
// wrapped in Unicode's FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE, so it keeps its own
// direction inside the mirrored layout, which still aligns and orders the page right to left.
import { useLayoutPreferences } from './layout-preferences';

const firstStrongIsolate = '\u2068';
const popDirectionalIsolate = '\u2069';

/** `text` as a run of its own direction when the layout is right to left; unchanged otherwise. */
export function isolate(text: string): string {
  if (!useLayoutPreferences.getState().rtl || !text) return text;
  return firstStrongIsolate + text + popDirectionalIsolate;
}

/** i18next post-processor: every translation is isolated (see above). */
export const isolateTranslations = {
  type: 'postProcessor',
  name: 'isolate',
  process: (value: string) => isolate(value),
} as const;
