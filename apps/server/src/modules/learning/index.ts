// The learning module's door: a student's progress in their courses.
// Other modules import only from here (lint: import-x/no-restricted-paths).
export { courseProgress } from './progress';
export type { CourseProgress } from './progress';
