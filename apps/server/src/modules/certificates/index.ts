// The certificates module's door: earning them, a course's certificates, and the PDF writer.
// Other modules import only from here (lint: import-x/no-restricted-paths).
export { batchHasEnded } from './earn';
export { certificatesOfCourse } from './service';
export { writable } from './pdf';
