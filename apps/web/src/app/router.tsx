// Routes, each screen its own chunk. Guards run as loaders so a screen never flashes for someone
// who may not see it.
import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router';
import { LoadingScreen } from './loading-screen';
import type { RouteHandle } from './document-title';
import { RootRoute } from './root-route';
import { RouteError } from './routes/route-error';
import { guestOnly, homeRedirect, knownParams, permitted, signedInOnly } from './guards';
import type { ScreenName } from './signed-in';
// The login page and its frame are part of the entry, not chunks of their own: it is the page people
// open first, and as lazy chunks it came in a third round trip, cut by Rollup into some 35 files of a
// kilobyte or two shared with later screens (at most 12 files, in at most two round trips).
// What it adds to the entry (its form, Mantine's inputs) the signed-in screens use too.
import { PublicLayout } from './layout/public-layout';
import { LoginPage } from '../features/auth/login-page';

/**
 * The signed-in part of the app (the app frame, the ability and every screen it frames) is one module,
 * ./signed-in: its screens are imported from there, so the build knows the frame is
 * already loaded when a screen is and keeps the frame in one file instead of dozens shared by screens.
 */
const signedIn = () => import('./signed-in');

/**
 * A route's component, fetched when first needed. When its file cannot be fetched (offline, or a deploy
 * has replaced it), the route draws the error page with its Reload: the router does not report a failed
 * lazy Component of a route without a loader, and the screen stayed blank.
 */
function lazyComponent(load: () => Promise<ComponentType>) {
  return async (): Promise<ComponentType> => {
    try {
      return await load();
    } catch (error) {
      return function Unfetched(): never {
        throw error;
      };
    }
  };
}

const screen = (name: ScreenName) => lazyComponent(async () => (await signedIn()).screens[name]());

/** "/" only ever redirects; a component keeps the router from warning about an empty leaf. */
function RedirectOnly() {
  return null;
}

export const router = createBrowserRouter([
  {
    Component: RootRoute,
    HydrateFallback: LoadingScreen,
    ErrorBoundary: RouteError,
    children: [
      { index: true, loader: homeRedirect, Component: RedirectOnly },
      {
        loader: guestOnly,
        Component: PublicLayout,
        children: [
          {
            path: 'login',
            handle: { titleKey: 'pageTitle.login' } satisfies RouteHandle,
            Component: LoginPage,
          },
          {
            path: 'register',
            handle: { titleKey: 'pageTitle.register' } satisfies RouteHandle,
            lazy: {
              Component: lazyComponent(async () => (await import('../features/auth/register-page')).RegisterPage),
            },
          },
          {
            path: 'verify',
            handle: { titleKey: 'pageTitle.verify' } satisfies RouteHandle,
            lazy: { Component: lazyComponent(async () => (await import('../features/auth/verify-page')).VerifyPage) },
          },
          {
            path: 'forgot-password',
            handle: { titleKey: 'pageTitle.forgotPassword' } satisfies RouteHandle,
            lazy: {
              Component: lazyComponent(
                async () => (await import('../features/auth/forgot-password-page')).ForgotPasswordPage,
              ),
            },
          },
        ],
      },
      {
        // TanStack Query for every screen below (app/query-root.tsx); the account screens above do without.
        lazy: { Component: lazyComponent(async () => (await import('./query-root')).QueryRoot) },
        children: [
          {
            loader: signedInOnly,
            lazy: { Component: lazyComponent(async () => (await signedIn()).AppLayout) },
            children: [
              {
                path: 'dashboard',
                handle: { titleKey: 'pageTitle.dashboard' } satisfies RouteHandle,
                lazy: { Component: screen('dashboard') },
              },
              {
                path: 'profile',
                handle: { titleKey: 'pageTitle.profile' } satisfies RouteHandle,
                loader: permitted('read', 'Profile'),
                lazy: { Component: screen('profile') },
              },
              {
                path: 'change-password',
                handle: { titleKey: 'pageTitle.changePassword' } satisfies RouteHandle,
                loader: permitted('update', 'Profile'),
                lazy: { Component: screen('changePassword') },
              },
              {
                path: 'courses',
                handle: { titleKey: 'pageTitle.courses' } satisfies RouteHandle,
                loader: permitted('read', 'Course'),
                lazy: { Component: screen('courses') },
              },
              {
                path: 'my-courses',
                handle: { titleKey: 'pageTitle.myCourses' } satisfies RouteHandle,
                loader: permitted('read', 'MyCourse'),
                lazy: { Component: screen('myCourses') },
              },
              {
                path: 'my-courses/new',
                handle: { titleKey: 'pageTitle.newCourse' } satisfies RouteHandle,
                loader: permitted('create', 'Course'),
                lazy: { Component: screen('courseEditor') },
              },
              {
                path: 'my-courses/:id/edit',
                handle: { titleKey: 'pageTitle.editCourse' } satisfies RouteHandle,
                loader: knownParams('course', permitted('update', 'Course')),
                lazy: { Component: screen('courseEditor') },
                ErrorBoundary: RouteError,
              },
              {
                path: 'my-courses/:id/students',
                handle: { titleKey: 'pageTitle.courseStudents' } satisfies RouteHandle,
                // Those who may edit a course see its students (the server checks it is theirs).
                loader: knownParams('course', permitted('update', 'Course')),
                lazy: { Component: screen('courseStudents') },
                ErrorBoundary: RouteError,
              },
              {
                path: 'sessions',
                handle: { titleKey: 'pageTitle.sessions' } satisfies RouteHandle,
                loader: permitted('read', 'Session'),
                lazy: { Component: screen('sessions') },
              },
              {
                path: 'recordings',
                handle: { titleKey: 'pageTitle.recordings' } satisfies RouteHandle,
                loader: permitted('read', 'Recording'),
                lazy: { Component: screen('recordings') },
              },
              {
                path: 'recordings/course/:courseId',
                handle: { titleKey: 'pageTitle.courseRecordings' } satisfies RouteHandle,
                loader: knownParams('courseRecordings', permitted('read', 'Recording')),
                lazy: { Component: screen('courseRecordings') },
                ErrorBoundary: RouteError,
              },
              {
                path: 'recordings/:id',
                handle: { titleKey: 'pageTitle.recording' } satisfies RouteHandle,
                loader: knownParams('recording', permitted('read', 'Recording')),
                lazy: { Component: screen('recordingPlayer') },
                ErrorBoundary: RouteError,
              },
              {
                path: 'admin',
                handle: { titleKey: 'pageTitle.adminOverview' } satisfies RouteHandle,
                loader: permitted('read', 'AdminArea'),
                lazy: { Component: screen('adminOverview') },
              },
              {
                path: 'admin/users',
                handle: { titleKey: 'pageTitle.adminUsers' } satisfies RouteHandle,
                loader: permitted('read', 'User'),
                lazy: { Component: screen('adminUsers') },
              },
              {
                path: 'admin/courses',
                handle: { titleKey: 'pageTitle.adminCourses' } satisfies RouteHandle,
                loader: permitted('read', 'AdminArea'),
                lazy: { Component: screen('adminCourses') },
              },
              {
                path: 'admin/payments',
                handle: { titleKey: 'pageTitle.adminPayments' } satisfies RouteHandle,
                loader: permitted('read', 'Payment'),
                lazy: { Component: screen('adminPayments') },
              },
              {
                path: 'admin/audit',
                handle: { titleKey: 'pageTitle.adminAudit' } satisfies RouteHandle,
                loader: permitted('read', 'AuditLog'),
                lazy: { Component: screen('adminAudit') },
              },
              {
                path: 'meeting',
                handle: { titleKey: 'pageTitle.meetings' } satisfies RouteHandle,
                loader: permitted('join', 'Meeting'),
                lazy: { Component: screen('meetingLobby') },
              },
            ],
          },
          {
            // The meeting room fills the viewport: no app frame around the video.
            path: 'meeting/:roomId',
            handle: { titleKey: 'pageTitle.meeting' } satisfies RouteHandle,
            loader: knownParams('room', permitted('join', 'Meeting')),
            lazy: { Component: screen('meetingRoom') },
            ErrorBoundary: RouteError,
          },
          {
            // Pages anyone may reach: framed by the app layout when signed in, the public one otherwise.
            lazy: { Component: lazyComponent(async () => (await import('./layout/adaptive-layout')).AdaptiveLayout) },
            children: [
              {
                path: 'courses/:id',
                handle: { titleKey: 'pageTitle.course' } satisfies RouteHandle,
                loader: knownParams('course'),
                lazy: { Component: lazyComponent(async () => (await import('./routes/course-route')).CourseRoute) },
                ErrorBoundary: RouteError,
              },
              {
                // The public verification of a certificate: no login needed (contract: certificates.verify is public).
                path: 'certificates/:id',
                handle: { titleKey: 'pageTitle.certificate' } satisfies RouteHandle,
                loader: knownParams('certificate'),
                lazy: {
                  Component: lazyComponent(
                    async () => (await import('../features/certificates/certificate-page')).CertificatePage,
                  ),
                },
                ErrorBoundary: RouteError,
              },
              {
                path: 'not-authorized',
                handle: { titleKey: 'pageTitle.notAuthorized' } satisfies RouteHandle,
                lazy: {
                  Component: lazyComponent(async () => (await import('./routes/not-authorized')).NotAuthorizedPage),
                },
              },
              {
                path: '*',
                handle: { titleKey: 'pageTitle.notFound' } satisfies RouteHandle,
                lazy: { Component: lazyComponent(async () => (await import('./routes/not-found')).NotFoundPage) },
              },
            ],
          },
        ],
      },
    ],
  },
]);
