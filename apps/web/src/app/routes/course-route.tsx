// The course page with its Assignments tab: the app joins the two features (they never import each other).
import { CoursePage } from '../../features/courses/course-page';
import { AssignmentsTab } from '../../features/assignments/assignments-tab';

export function CourseRoute() {
  return <CoursePage assignments={AssignmentsTab} />;
}
