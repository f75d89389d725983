// The courses module's door: what a student bought (the one place that asks about subscriptions), a purchase's life, and the catalogue.
// Other modules import only from here (lint: import-x/no-restricted-paths).
export { hasBought, hasPurchased, isActiveSubscription, payingStudents, purchases } from './purchases';
export { activateSubscription, createPendingSubscription, findSubscription, findSubscriptionByOrder, pendingSubscription, recordPaymentFailure, updatePendingSubscription } from './enrollments';
export type { Activation, ScheduleChoice } from './enrollments';
export type { CoursesService } from './service';
