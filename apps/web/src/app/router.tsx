// Routes, each screen its own chunk. Guards run as loaders so a screen never flashes for someone
// who may not see it.
import { createBrowserRouter } from 'react-router';
import { LoadingScreen } from './loading-screen';
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
            lazy: { Component: async () => (await import('../features/auth/login-page')).LoginPage },
          },
          {
            path: 'register',
            lazy: { Component: async () => (await import('../features/auth/register-page')).RegisterPage },
          },
          {
            path: 'verify',
            lazy: { Component: async () => (await import('../features/auth/verify-page')).VerifyPage },
          },
          {
            path: 'forgot-password',
            lazy: { Component: async () => (await import('../features/auth/forgot-password-page')).ForgotPasswordPage },
          },
        ],
      },
      {
        loader: signedInOnly,
        lazy: { Component: async () => (await import('./layout/app-layout')).AppLayout },
        children: [
          {
            path: 'dashboard',
            lazy: { Component: async () => (await import('../features/dashboard/dashboard-page')).DashboardPage },
          },
          {
            path: 'profile',
            loader: permitted('read', 'Profile'),
            lazy: { Component: async () => (await import('../features/auth/profile-page')).ProfilePage },
          },
          {
            path: 'change-password',
            loader: permitted('update', 'Profile'),
            lazy: { Component: async () => (await import('../features/auth/change-password-page')).ChangePasswordPage },
          },
          {
            path: 'courses',
            loader: permitted('read', 'Course'),
            lazy: { Component: async () => (await import('../features/courses/courses-page')).CoursesPage },
          },
          {
            path: 'my-courses',
            loader: permitted('read', 'MyCourse'),
            lazy: { Component: async () => (await import('../features/courses/my-courses-page')).MyCoursesPage },
          },
          {
            path: 'my-courses/new',
            loader: permitted('create', 'Course'),
            lazy: { Component: async () => (await import('../features/courses/course-editor-page')).CourseEditorPage },
          },
          {
            path: 'my-courses/:id/edit',
            loader: permitted('update', 'Course'),
            lazy: { Component: async () => (await import('../features/courses/course-editor-page')).CourseEditorPage },
          },
          {
            path: 'sessions',
            loader: permitted('read', 'Session'),
            lazy: { Component: async () => (await import('../features/classes/sessions-page')).SessionsPage },
          },
          {
            path: 'meeting',
            loader: permitted('join', 'Meeting'),
            lazy: { Component: async () => (await import('../features/meeting/meeting-lobby-page')).MeetingLobbyPage },
          },
        ],
      },
      {
        // The meeting room fills the viewport: no app frame around the video.
        path: 'meeting/:roomId',
        loader: permitted('join', 'Meeting'),
        lazy: { Component: async () => (await import('../features/meeting/meeting-room-page')).MeetingRoomPage },
      },
      {
        // Pages anyone may reach: framed by the app layout when signed in, the public one otherwise.
        lazy: { Component: async () => (await import('./layout/adaptive-layout')).AdaptiveLayout },
        children: [
          {
            path: 'courses/:id',
            lazy: { Component: async () => (await import('../features/courses/course-page')).CoursePage },
          },
          {
            path: 'not-authorized',
            lazy: { Component: async () => (await import('./routes/not-authorized')).NotAuthorizedPage },
          },
          {
            path: '*',
            lazy: { Component: async () => (await import('./routes/not-found')).NotFoundPage },
          },
        ],
      },
    ],
  },
]);
