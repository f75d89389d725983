// The sessions module's door: who may see which sessions, a session as presented and joined, and the words of its mails.
// Other modules import only from here (lint: import-x/no-restricted-paths).
export { courseSessions, databaseFacts, idArray, inScope, namesCourse, scopeCondition, scopeFrom, seesCourse, seesNothing, sessionForRoom, sessionOfRoom, sessionScope } from './access';
export type { SessionScope } from './access';
export { joinLink, publicOrigin } from './join-link';
export { joinable, present } from './service';
export { formatSessionTime, sessionKinds, sessionMailWords } from './session-mails';
