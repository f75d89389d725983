// Routes, each screen its own chunk. Guards run as loaders so a screen never flashes for someone
// who may not see it.
import { createBrowserRouter } from 'react-router';
import { LoadingScreen } from './loading-screen';
import type { RouteHandle } from './document-title';
import { RootRoute } from './root-route';
import { guestOnly, homeRedirect, permitted, signedInOnly } from './guards';

/** "/" only ever redirects; a component keeps the router from warning about an empty leaf. */
function RedirectOnly() {
  return null;
}

export const router = createBrowserRouter([
  {
    Component: RootRoute,
    HydrateFallback: LoadingScreen,
    lazy: { ErrorBoundary: async () => (await import('./routes/error-page')).ErrorPage },
    children: [
      { index: true, loader: homeRedirect, Component: RedirectOnly },
      {
        loader: guestOnly,
        lazy: { Component: async () => (await import('./layout/public-layout')).PublicLayout },
        children: [
          {
            path: 'login',
            handle: { titleKey: 'pageTitle.login' } satisfies RouteHandle,
            lazy: { Component: async () => (await import('../features/auth/login-page')).LoginPage },
          },
          {
            path: 'register',
            handle: { titleKey: 'pageTitle.register' } satisfies RouteHandle,
            lazy: { Component: async () => (await import('../features/auth/register-page')).RegisterPage },
          },
          {
            path: 'verify',
            handle: { titleKey: 'pageTitle.verify' } satisfies RouteHandle,
            lazy: { Component: async () => (await import('../features/auth/verify-page')).VerifyPage },
          },
          {
            path: 'forgot-password',
            handle: { titleKey: 'pageTitle.forgotPassword' } satisfies RouteHandle,
            lazy: { Component: async () => (await import('../features/auth/forgot-password-page')).ForgotPasswordPage },
          },
        ],
      },
      {
        // TanStack Query for every screen below (app/query-root.tsx); the account screens above do without.
        lazy: { Component: async () => (await import('./query-root')).QueryRoot },
        children: [
          {
            loader: signedInOnly,
            lazy: { Component: async () => (await import('./layout/app-layout')).AppLayout },
            children: [
              {
                path: 'dashboard',
                handle: { titleKey: 'pageTitle.dashboard' } satisfies RouteHandle,
                lazy: { Component: async () => (await import('../features/dashboard/dashboard-page')).DashboardPage },
              },
              {
                path: 'profile',
                handle: { titleKey: 'pageTitle.profile' } satisfies RouteHandle,
                loader: permitted('read', 'Profile'),
                lazy: { Component: async () => (await import('../features/auth/profile-page')).ProfilePage },
              },
              {
                path: 'change-password',
                handle: { titleKey: 'pageTitle.changePassword' } satisfies RouteHandle,
                loader: permitted('update', 'Profile'),
                lazy: { Component: async () => (await import('../features/auth/change-password-page')).ChangePasswordPage },
              },
              {
                path: 'courses',
                handle: { titleKey: 'pageTitle.courses' } satisfies RouteHandle,
                loader: permitted('read', 'Course'),
                lazy: { Component: async () => (await import('../features/courses/courses-page')).CoursesPage },
              },
              {
                path: 'my-courses',
                handle: { titleKey: 'pageTitle.myCourses' } satisfies RouteHandle,
                loader: permitted('read', 'MyCourse'),
                lazy: { Component: async () => (await import('../features/courses/my-courses-page')).MyCoursesPage },
              },
              {
                path: 'my-courses/new',
                handle: { titleKey: 'pageTitle.newCourse' } satisfies RouteHandle,
                loader: permitted('create', 'Course'),
                lazy: { Component: async () => (await import('../features/courses/course-editor-page')).CourseEditorPage },
              },
              {
                path: 'my-courses/:id/edit',
                handle: { titleKey: 'pageTitle.editCourse' } satisfies RouteHandle,
                loader: permitted('update', 'Course'),
                lazy: { Component: async () => (await import('../features/courses/course-editor-page')).CourseEditorPage },
              },
              {
                path: 'my-courses/:id/students',
                handle: { titleKey: 'pageTitle.courseStudents' } satisfies RouteHandle,
                // Those who may edit a course see its students (the server checks it is theirs).
                loader: permitted('update', 'Course'),
                lazy: { Component: async () => (await import('./routes/course-students-route')).CourseStudentsRoute },
              },
              {
                path: 'sessions',
                handle: { titleKey: 'pageTitle.sessions' } satisfies RouteHandle,
                loader: permitted('read', 'Session'),
                lazy: { Component: async () => (await import('../features/classes/sessions-page')).SessionsPage },
              },
              {
                path: 'recordings',
                handle: { titleKey: 'pageTitle.recordings' } satisfies RouteHandle,
                loader: permitted('read', 'Recording'),
                lazy: { Component: async () => (await import('../features/recordings/recordings-page')).RecordingsPage },
              },
              {
                path: 'recordings/course/:courseId',
                handle: { titleKey: 'pageTitle.courseRecordings' } satisfies RouteHandle,
                loader: permitted('read', 'Recording'),
                lazy: { Component: async () => (await import('../features/recordings/course-recordings-page')).CourseRecordingsPage },
              },
              {
                path: 'recordings/:id',
                handle: { titleKey: 'pageTitle.recording' } satisfies RouteHandle,
                loader: permitted('read', 'Recording'),
                lazy: { Component: async () => (await import('../features/recordings/recording-player-page')).RecordingPlayerPage },
              },
              {
                path: 'admin',
                handle: { titleKey: 'pageTitle.adminOverview' } satisfies RouteHandle,
                loader: permitted('read', 'AdminArea'),
                lazy: { Component: async () => (await import('../features/admin/admin-overview-page')).AdminOverviewPage },
              },
              {
                path: 'admin/users',
                handle: { titleKey: 'pageTitle.adminUsers' } satisfies RouteHandle,
                loader: permitted('read', 'User'),
                lazy: { Component: async () => (await import('../features/admin/admin-users-page')).AdminUsersPage },
              },
              {
                path: 'admin/courses',
                handle: { titleKey: 'pageTitle.adminCourses' } satisfies RouteHandle,
                loader: permitted('read', 'AdminArea'),
                lazy: { Component: async () => (await import('../features/admin/admin-courses-page')).AdminCoursesPage },
              },
              {
                path: 'admin/payments',
                handle: { titleKey: 'pageTitle.adminPayments' } satisfies RouteHandle,
                loader: permitted('read', 'Payment'),
                lazy: { Component: async () => (await import('../features/admin/admin-payments-page')).AdminPaymentsPage },
              },
              {
                path: 'admin/audit',
                handle: { titleKey: 'pageTitle.adminAudit' } satisfies RouteHandle,
                loader: permitted('read', 'AuditLog'),
                lazy: { Component: async () => (await import('../features/admin/admin-audit-page')).AdminAuditPage },
              },
              {
                path: 'meeting',
                handle: { titleKey: 'pageTitle.meetings' } satisfies RouteHandle,
                loader: permitted('join', 'Meeting'),
                lazy: { Component: async () => (await import('../features/meeting/meeting-lobby-page')).MeetingLobbyPage },
              },
            ],
          },
          {
            // The meeting room fills the viewport: no app frame around the video.
            path: 'meeting/:roomId',
            handle: { titleKey: 'pageTitle.meeting' } satisfies RouteHandle,
            loader: permitted('join', 'Meeting'),
            lazy: { Component: async () => (await import('../features/meeting/meeting-room-page')).MeetingRoomPage },
          },
          {
            // Pages anyone may reach: framed by the app layout when signed in, the public one otherwise.
            lazy: { Component: async () => (await import('./layout/adaptive-layout')).AdaptiveLayout },
            children: [
              {
                path: 'courses/:id',
                handle: { titleKey: 'pageTitle.course' } satisfies RouteHandle,
                lazy: { Component: async () => (await import('./routes/course-route')).CourseRoute },
              },
              {
                // The public verification of a certificate: no login needed (contract: certificates.verify is public).
                path: 'certificates/:id',
                handle: { titleKey: 'pageTitle.certificate' } satisfies RouteHandle,
                lazy: { Component: async () => (await import('../features/certificates/certificate-page')).CertificatePage },
              },
              {
                path: 'not-authorized',
                handle: { titleKey: 'pageTitle.notAuthorized' } satisfies RouteHandle,
                lazy: { Component: async () => (await import('./routes/not-authorized')).NotAuthorizedPage },
              },
              {
                path: '*',
                handle: { titleKey: 'pageTitle.notFound' } satisfies RouteHandle,
                lazy: { Component: async () => (await import('./routes/not-found')).NotFoundPage },
              },
            ],
          },
        ],
      },
    ],
  },
]);
