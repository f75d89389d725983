// The signed-in part of the app, loaded as one module once someone signs in (app/router.tsx): the app
// frame, the ability its guards ask, and the screens it frames. (TanStack Query's root stays apart: the
// public pages a guest may open use it without the frame.) The screens are
// imported from here, not from the router, so the build knows this module is loaded whenever one of them
// is: what the frame and a screen share stays in the frame's file, instead of being cut into the dozens
// of small shared files a screen would otherwise fetch.
import { afterFirstScreen } from '../lib/first-screen';

export { AppLayout } from './layout/app-layout';
export { appAbility } from '../lib/ability';

export const screens = {
  dashboard: async () => (await import('../features/dashboard/dashboard-page')).DashboardPage,
  profile: async () => (await import('./routes/profile-route')).ProfileRoute,
  changePassword: async () => (await import('../features/auth/change-password-page')).ChangePasswordPage,
  courses: async () => (await import('../features/courses/courses-page')).CoursesPage,
  myCourses: async () => (await import('../features/courses/my-courses-page')).MyCoursesPage,
  courseEditor: async () => (await import('../features/courses/course-editor-page')).CourseEditorPage,
  courseStudents: async () => (await import('./routes/course-students-route')).CourseStudentsRoute,
  sessions: async () => (await import('../features/sessions/sessions-page')).SessionsPage,
  recordings: async () => (await import('../features/recordings/recordings-page')).RecordingsPage,
  courseRecordings: async () => (await import('../features/recordings/course-recordings-page')).CourseRecordingsPage,
  recordingPlayer: async () => (await import('../features/recordings/recording-player-page')).RecordingPlayerPage,
  adminOverview: async () => (await import('../features/admin/admin-overview-page')).AdminOverviewPage,
  adminUsers: async () => (await import('../features/admin/admin-users-page')).AdminUsersPage,
  adminCourses: async () => (await import('../features/admin/admin-courses-page')).AdminCoursesPage,
  adminPayments: async () => (await import('../features/admin/admin-payments-page')).AdminPaymentsPage,
  adminAudit: async () => (await import('../features/admin/admin-audit-page')).AdminAuditPage,
  meetingLobby: async () => (await import('../features/meeting/meeting-lobby-page')).MeetingLobbyPage,
  meetingRoom: async () => (await import('../features/meeting/meeting-room-page')).MeetingRoomPage,
};

export type ScreenName = keyof typeof screens;

// A recording a page before this one could not finish sending (a reload or a crash mid-class) is sent
// once the first screen is drawn, from the chunks that page kept. Once per page load, whichever
// signed-in page it is.
void afterFirstScreen(() => import('../features/meeting/recording/pending-upload')).then((module) =>
  module.sendPendingRecordings(),
);
