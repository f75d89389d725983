// The assignments module's door: who is in a course, as assignments and certificates judge it.
// Other modules import only from here (lint: import-x/no-restricted-paths).
export { courseFor } from './access';
export type { Caller } from './access';
