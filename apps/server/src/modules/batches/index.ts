// The batches module's door: a course's batches, their seats, and the batch a purchase gets.
// Other modules import only from here (lint: import-x/no-restricted-paths).
export { chooseBatch } from './choice';
export { applyListChanges, checkBatchCount, openBatchesFromLists, presentBatch } from './service';
export { batchesOf, releaseSeat, takeSeat } from './store';
export type { BatchRow } from './store';
export { zonedInstant } from './timetable';
