// The notifications module's door: the events other modules tell (door.ts).
// Other modules import only from here (lint: import-x/no-restricted-paths).
export type { NotificationsDoor } from './door';
export type { Notice } from './service';
