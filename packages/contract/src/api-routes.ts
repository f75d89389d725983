// Where each endpoint lives: its method and path, and nothing else, so the web app can call an
// endpoint by name without loading a single schema on the first visit. endpoints.ts adds the schemas
// and who may call; the two together are the one declaration of the API.
/** Everything under this prefix is the API (the rest is the web app and socket.io). */
export const apiPrefix = '/api/';
/** The API reference (OpenAPI) and its JSON document at `${apiDocsPath}/json`. */
export const apiDocsPath = '/api/docs';

export const apiRoutes = {
  health: { method: 'GET', path: '/api/health' },
  auth: {
    register: { method: 'POST', path: '/api/auth/register/' },
    sendOtp: { method: 'POST', path: '/api/auth/send-otp/' },
    verifyOtp: { method: 'POST', path: '/api/auth/verify-otp/' },
    login: { method: 'POST', path: '/api/auth/login/' },
    refresh: { method: 'POST', path: '/api/auth/token/refresh/' },
    logout: { method: 'POST', path: '/api/auth/logout/' },
    forgotPassword: { method: 'POST', path: '/api/auth/forgot-password/' },
    changePassword: { method: 'POST', path: '/api/auth/change-password/' },
    changeEmail: { method: 'POST', path: '/api/auth/change-email/' },
    confirmEmailChange: { method: 'POST', path: '/api/auth/change-email/confirm/' },
    profile: { method: 'GET', path: '/api/auth/profile/' },
    updateProfile: { method: 'PATCH', path: '/api/auth/profile/' },
    trialStatus: { method: 'GET', path: '/api/auth/trial-status/' },
  },
  admin: {
    createUser: { method: 'POST', path: '/api/admin/users/' },
    users: { method: 'GET', path: '/api/admin/users/' },
    deactivateUser: { method: 'POST', path: '/api/admin/users/:id/deactivate/' },
    reactivateUser: { method: 'POST', path: '/api/admin/users/:id/reactivate/' },
    courses: { method: 'GET', path: '/api/admin/courses/' },
    payments: { method: 'GET', path: '/api/admin/payments/' },
    refundPayment: { method: 'POST', path: '/api/admin/payments/:id/refund/' },
    overview: { method: 'GET', path: '/api/admin/overview/' },
    audit: { method: 'GET', path: '/api/admin/audit/' },
  },
  courses: {
    catalogue: { method: 'GET', path: '/api/courses/' },
    mine: { method: 'GET', path: '/api/courses/my_courses/' },
    one: { method: 'GET', path: '/api/courses/:id/' },
    create: { method: 'POST', path: '/api/courses/' },
    update: { method: 'PATCH', path: '/api/courses/:id/' },
    remove: { method: 'DELETE', path: '/api/courses/:id/' },
    removal: { method: 'GET', path: '/api/courses/:id/removal/' },
    students: { method: 'GET', path: '/api/courses/:id/students/' },
    studentsCsv: { method: 'GET', path: '/api/courses/:id/students/export/' },
  },
  batches: {
    create: { method: 'POST', path: '/api/courses/:id/batches/' },
    update: { method: 'PATCH', path: '/api/courses/:id/batches/:batchId/' },
    remove: { method: 'DELETE', path: '/api/courses/:id/batches/:batchId/' },
  },
  sessions: {
    list: { method: 'GET', path: '/api/classes/sessions/' },
    schedule: { method: 'POST', path: '/api/classes/sessions/' },
    update: { method: 'PATCH', path: '/api/classes/sessions/:id/' },
    cancel: { method: 'POST', path: '/api/classes/sessions/:id/cancel/' },
    attendance: { method: 'GET', path: '/api/classes/sessions/:id/attendance/' },
    /** The same attendance as a CSV file (text/csv, an attachment): one row per stint, then the absent. */
    attendanceCsv: { method: 'GET', path: '/api/classes/sessions/:id/attendance/export/' },
    /** The attendance of the session whose room this is, for the meeting's People tab. */
    roomAttendance: { method: 'GET', path: '/api/classes/rooms/:roomId/attendance/' },
    /** One session as an iCalendar file (text/calendar, an attachment), for "Add to calendar". */
    ics: { method: 'GET', path: '/api/classes/sessions/:id/ics/' },
    /** The class whiteboard's pages saved as images (whiteboard.ts), and one of them as PNG. */
    whiteboardPages: { method: 'GET', path: '/api/classes/rooms/:roomId/whiteboard/' },
    whiteboardImage: { method: 'GET', path: '/api/classes/rooms/:roomId/whiteboard/:page/' },
    saveWhiteboardImage: { method: 'POST', path: '/api/classes/rooms/:roomId/whiteboard/:page/' },
    /** The saved whiteboard pages of a course's sessions that the caller may see, newest session first. */
    courseWhiteboards: { method: 'GET', path: '/api/courses/:id/whiteboards/' },
    /** Every answer to the room's polls as a CSV file (text/csv, an attachment), for its hosts. */
    pollAnswersCsv: { method: 'GET', path: '/api/classes/rooms/:roomId/polls/export/' },
  },
  calendar: {
    feed: { method: 'GET', path: '/api/auth/calendar/' },
    createFeed: { method: 'POST', path: '/api/auth/calendar/' },
    revokeFeed: { method: 'DELETE', path: '/api/auth/calendar/' },
    /**
     * The feed itself, text/calendar, public by its secret token (calendar apps send no bearer token);
     * a revoked or unknown token is 404.
     */
    ics: { method: 'GET', path: '/api/calendar/:token.ics' },
  },
  recordings: {
    list: { method: 'GET', path: '/api/classes/recordings/' },
    get: { method: 'GET', path: '/api/classes/recordings/:id/' },
    remove: { method: 'DELETE', path: '/api/classes/recordings/:id/' },
    progress: { method: 'POST', path: '/api/classes/recordings/:id/progress/' },
    upload: { method: 'POST', path: '/api/classes/sessions/:roomId/upload-recording/' },
    startLive: { method: 'POST', path: '/api/classes/recordings/live/' },
    liveStatus: { method: 'GET', path: '/api/classes/recordings/live/:id/' },
    appendLive: { method: 'PATCH', path: '/api/classes/recordings/live/:id/' },
    finishLive: { method: 'POST', path: '/api/classes/recordings/live/:id/finish/' },
    /**
     * A recording's bytes behind a signed, expiring link (`url` / `download_url` of a recording; with
     * file storage): `?expires=&signature=[&download=1]`, HTTP Range, no bearer token. Raw bytes, so not
     * a JSON endpoint of endpoints.ts.
     */
    media: { method: 'GET', path: '/api/classes/recordings/:id/media/' },
  },
  dashboards: {
    student: { method: 'GET', path: '/api/dashboard/student/' },
    teacher: { method: 'GET', path: '/api/dashboard/teacher/' },
  },
  assignments: {
    list: { method: 'GET', path: '/api/courses/:id/assignments/' },
    create: { method: 'POST', path: '/api/courses/:id/assignments/' },
    one: { method: 'GET', path: '/api/assignments/:id/' },
    update: { method: 'PATCH', path: '/api/assignments/:id/' },
    remove: { method: 'DELETE', path: '/api/assignments/:id/' },
    attach: { method: 'POST', path: '/api/assignments/:id/attachment/' },
    detach: { method: 'DELETE', path: '/api/assignments/:id/attachment/' },
    submissions: { method: 'GET', path: '/api/assignments/:id/submissions/' },
    submit: { method: 'POST', path: '/api/assignments/:id/submission/' },
    submission: { method: 'GET', path: '/api/submissions/:id/' },
    review: { method: 'POST', path: '/api/submissions/:id/review/' },
    /**
     * An attachment's or an answer's bytes behind a signed, expiring link (`file.url`):
     * `?expires=&signature=`, no bearer token. Raw bytes, so not a JSON endpoint of endpoints.ts.
     */
    file: { method: 'GET', path: '/api/files/:key' },
  },
  certificates: {
    mine: { method: 'GET', path: '/api/certificates/' },
    award: { method: 'POST', path: '/api/courses/:id/certificates/' },
    verify: { method: 'GET', path: '/api/certificates/:id/' },
    /** The certificate's PDF, public by its unguessable id. Raw bytes (application/pdf). */
    pdf: { method: 'GET', path: '/api/certificates/:id/pdf/' },
  },
  payments: {
    config: { method: 'GET', path: '/api/payments/config/' },
    createOrder: { method: 'POST', path: '/api/payments/create_order/' },
    verify: { method: 'POST', path: '/api/payments/verify_payment/' },
    sandboxPay: { method: 'POST', path: '/api/payments/sandbox/pay/' },
    sandboxFail: { method: 'POST', path: '/api/payments/sandbox/fail/' },
    webhook: { method: 'POST', path: '/api/payments/webhook/' },
  },
  search: {
    query: { method: 'GET', path: '/api/search/' },
  },
  bookmarks: {
    data: { method: 'GET', path: '/api/bookmarks/data' },
    update: { method: 'POST', path: '/api/bookmarks/update' },
    order: { method: 'POST', path: '/api/bookmarks/order' },
  },
  meetings: {
    iceServers: { method: 'GET', path: '/api/ice-servers/' },
    capacity: { method: 'GET', path: '/api/meetings/capacity/' },
  },
  notifications: {
    list: { method: 'GET', path: '/api/notifications/' },
    unread: { method: 'GET', path: '/api/notifications/unread/' },
    markRead: { method: 'POST', path: '/api/notifications/:id/read/' },
    markAllRead: { method: 'POST', path: '/api/notifications/read-all/' },
    preferences: { method: 'GET', path: '/api/notifications/preferences/' },
    updatePreferences: { method: 'PATCH', path: '/api/notifications/preferences/' },
    /** RFC 8058 one-click unsubscribe: public, by the mail's signed token; the body is `List-Unsubscribe=One-Click`. */
    unsubscribe: { method: 'POST', path: '/api/notifications/unsubscribe/' },
  },
  purchases: {
    mine: { method: 'GET', path: '/api/payments/purchases/' },
    /** The purchase's PDF receipt (its buyer). Raw bytes (application/pdf). */
    receipt: { method: 'GET', path: '/api/payments/purchases/:id/receipt/' },
  },
} as const;
