// The recordings module's door: the storage (recordings and assignment files), signed links, and which recordings play.
// Other modules import only from here (lint: import-x/no-restricted-paths).
export { NoSuchKeyError } from './storage';
export type { Storage } from './storage';
export { linkSignature } from './links';
export { playable, watchCondition } from './access';
export { liveChunkPrefix } from './live';
