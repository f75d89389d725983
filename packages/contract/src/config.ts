// Names of the browser storage keys the specification fixes, shared by the web app and e2e tests.
export const storageKeys = {
  access: 'accessToken',
  refresh: 'refreshToken',
  user: 'userData',
  userName: 'userName',
  sessionId: 'sessionId',
  layout: 'layout',
  language: 'i18nextLng',
} as const;
