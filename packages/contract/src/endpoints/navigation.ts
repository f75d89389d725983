// The API's endpoints: what a signed-in person finds their way by: dashboards, search, bookmarks.
// Assembled with the others in ../endpoints.ts.
import { apiRoutes } from '../api-routes';
import { studentDashboard, studentDashboardQuery, teacherDashboard, teacherDashboardQuery } from '../dashboards';
import { endpoint } from '../endpoint';
import { dataEnvelope } from '../envelope';
import { bookmarkOrderBody, bookmarksData, bookmarkToggleBody, searchData, searchQuery } from '../navigation';

export const dashboardsEndpoints = {
  student: endpoint({
    ...apiRoutes.dashboards.student,
    summary: "The student's learning: hours (live + recordings), assignments, skills, the 7-day trend in ?tz=, certificates",
    tags: ['dashboards'],
    access: ['read', 'StudentDashboard'],
    query: studentDashboardQuery,
    status: 200,
    response: dataEnvelope(studentDashboard),
    failures: [404],
  }),
  teacher: endpoint({
    ...apiRoutes.dashboards.teacher,
    summary: "The teacher's stats (hours taught, active students, upcoming, next and missed classes) and the 7-day trend in ?tz=",
    tags: ['dashboards'],
    access: ['read', 'TeacherDashboard'],
    query: teacherDashboardQuery,
    status: 200,
    response: dataEnvelope(teacherDashboard),
    failures: [404],
  }),
} as const;

export const searchEndpoints = {
  query: endpoint({
    ...apiRoutes.search.query,
    summary: 'Courses, sessions and (teachers) students matching a text, typos forgiven; only what the caller may see',
    tags: ['navigation'],
    access: 'signedIn',
    query: searchQuery,
    status: 200,
    response: dataEnvelope(searchData),
  }),
} as const;

export const bookmarksEndpoints = {
  data: endpoint({
    ...apiRoutes.bookmarks.data,
    summary: "What the caller may bookmark (pages and courses) and their bookmarks, in their order",
    tags: ['navigation'],
    access: ['manage', 'Bookmark'],
    status: 200,
    response: dataEnvelope(bookmarksData),
  }),
  update: endpoint({
    ...apiRoutes.bookmarks.update,
    summary: 'Bookmark or un-bookmark one suggestion',
    tags: ['navigation'],
    access: ['manage', 'Bookmark'],
    body: bookmarkToggleBody,
    status: 200,
    response: dataEnvelope(bookmarksData),
    failures: [404],
  }),
  order: endpoint({
    ...apiRoutes.bookmarks.order,
    summary: "Put the caller's bookmarks in a new order",
    tags: ['navigation'],
    access: ['manage', 'Bookmark'],
    body: bookmarkOrderBody,
    status: 200,
    response: dataEnvelope(bookmarksData),
  }),
} as const;
