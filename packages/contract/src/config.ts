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

// The signalling server's socket.io (realtime.ts): kept apart from the schemas there, so a page that only
// connects (the bell's live notifications) does not load them.
export const socketPath = '/socket.io/';
export const socketTransports = ['websocket'] as const;
