// The auth module's door: accounts, trials and the revocation of access tokens.
// Other modules import only from here (lint: import-x/no-restricted-paths).
export { inTrial, isInTrial } from './trial';
export { presentUser } from './presenter';
export { createActiveUser } from './users';
export type { UserRow } from './users';
export type { Revocation } from './access-tokens';
