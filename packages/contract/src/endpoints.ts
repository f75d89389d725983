// Every HTTP endpoint of the API, declared once (see endpoint.ts). The server registers exactly these;
// the web client calls them by name, never by a path of its own.
// Each area's endpoints are in endpoints/; this object keeps them in one order, the API reference's.
import { apiRoutes } from './api-routes';
import { endpoint } from './endpoint';
import { healthResponse } from './envelope';
import { authEndpoints } from './endpoints/auth';
import { adminEndpoints } from './endpoints/admin';
import { coursesEndpoints, batchesEndpoints, certificatesEndpoints } from './endpoints/courses';
import { sessionsEndpoints, calendarEndpoints, meetingsEndpoints } from './endpoints/classes';
import { recordingsEndpoints } from './endpoints/recordings';
import { assignmentsEndpoints } from './endpoints/assignments';
import { paymentsEndpoints, purchasesEndpoints } from './endpoints/payments';
import { dashboardsEndpoints, searchEndpoints, bookmarksEndpoints } from './endpoints/navigation';
import { notificationsEndpoints } from './endpoints/notifications';

export const endpoints = {
  health: endpoint({
    ...apiRoutes.health,
    summary: 'Ready once the database is migrated; 503 naming what is down',
    tags: ['health'],
    access: 'public',
    status: 200,
    response: healthResponse,
  }),
  auth: authEndpoints,
  admin: adminEndpoints,
  courses: coursesEndpoints,
  batches: batchesEndpoints,
  sessions: sessionsEndpoints,
  calendar: calendarEndpoints,
  recordings: recordingsEndpoints,
  dashboards: dashboardsEndpoints,
  assignments: assignmentsEndpoints,
  certificates: certificatesEndpoints,
  payments: paymentsEndpoints,
  search: searchEndpoints,
  bookmarks: bookmarksEndpoints,
  meetings: meetingsEndpoints,
  notifications: notificationsEndpoints,
  purchases: purchasesEndpoints,
} as const;
