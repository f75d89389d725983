// Whether a media query matches, known from the first draw: Mantine's useMediaQuery answers false on
// the first render and the truth in an effect (for server rendering, which this app does not do), so a
// phone drew the whole frame and its screen for a desktop first, then again.
import { useMediaQuery } from '@mantine/hooks';

export const useMedia = (query: string): boolean => useMediaQuery(query, undefined, { getInitialValueInEffect: false });
