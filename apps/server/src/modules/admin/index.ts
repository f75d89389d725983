// The admin module's door for the other modules: what an admin does to them is audited.
// Other modules import only from here (lint: import-x/no-restricted-paths).
export { auditIfAdmin } from './audit';
