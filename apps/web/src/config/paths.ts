// Every route path in one place, so links and guards agree.
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  verify: '/verify',
  dashboard: '/dashboard',
  profile: '/profile',
  changePassword: '/change-password',
  courses: '/courses',
  course: (id: string | number) => `/courses/${id}`,
  myCourses: '/my-courses',
  newCourse: '/my-courses/new',
  editCourse: (id: string | number) => `/my-courses/${id}/edit`,
  courseStudents: (id: string | number) => `/my-courses/${id}/students`,
  meeting: (roomId: string) => `/meeting/${roomId}`,
  sessions: '/sessions',
  /** The sessions that start within the next `days` days (the teacher dashboard's upcoming classes). */
  sessionsUpcoming: (days: number) => `/sessions?upcoming=${days}`,
  recordings: '/recordings',
  courseRecordings: (courseId: string | number) => `/recordings/course/${courseId}`,
  recording: (id: string | number) => `/recordings/${id}`,
  meetings: '/meeting',
  notAuthorized: '/not-authorized',
  admin: '/admin',
  adminUsers: '/admin/users',
  adminCourses: '/admin/courses',
  adminPayments: '/admin/payments',
  adminAudit: '/admin/audit',
} as const;

/** The login page, asking it to come back to `target` afterwards. */
export function loginWithNext(target: string): string {
  return target && target !== paths.home ? `${paths.login}?next=${encodeURIComponent(target)}` : paths.login;
}

/** Only same-site paths may be used as a post-login destination. */
export function safeNext(next: string | null): string | null {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : null;
}

/**
 * The code screen for `email`; `resend` asks it to mail a fresh code on arrival; `next`, where the
 * user was going, is where verification (which signs them in) takes them.
 */
export function verifyPath(email: string, resend = false, next: string | null = null): string {
  const params = new URLSearchParams({ email });
  if (resend) params.set('resend', '1');
  if (next) params.set('next', next);
  return `${paths.verify}?${params}`;
}

/** `path` carrying `next` (where the user was going) on, when there is one. */
export function withNext(path: string, next: string | null): string {
  return next ? `${path}?${new URLSearchParams({ next })}` : path;
}
