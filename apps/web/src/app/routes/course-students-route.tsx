// A course's students with an "Award certificate" action each: the app joins the two features.
import { CourseStudentsPage } from '../../features/courses/course-students-page';
import { AwardCertificateButton } from '../../features/certificates/award-certificate';

export function CourseStudentsRoute() {
  return <CourseStudentsPage studentAction={AwardCertificateButton} />;
}
