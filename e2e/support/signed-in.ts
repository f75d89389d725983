// A browser context whose pages start signed in, as the app leaves local storage after a login, for
// tests and benchmarks that log in through the API instead of the form.
import type { BrowserContext } from '@playwright/test';
import { apiRoutes } from '@mooz/contract/api-routes';
import { storageKeys } from '@mooz/contract/config';

export interface StoredSession {
  access: string;
  refresh: string;
  user: Record<string, unknown>;
  /** The login answer's other fields (user_type, trial), stored with the user as the app does. */
  summary?: Record<string, unknown>;
}

/** Every page of `context` starts signed in as `session`, with `userName` as the saved meeting name. */
export async function startSignedIn(context: BrowserContext, session: StoredSession, userName: string): Promise<void> {
  await context.addInitScript(
    ({ keys, session, userName }) => {
      localStorage.setItem(keys.access, session.access);
      localStorage.setItem(keys.refresh, session.refresh);
      localStorage.setItem(keys.user, JSON.stringify({ ...session.summary, ...session.user }));
      localStorage.setItem(keys.userName, userName);
    },
    { keys: storageKeys, session, userName },
  );
}

/** The demo accounts' password, and the one given to the students tests make. */
const demoPassword = 'mooz-demo-123';

/** Logs in through the API of the server at `baseURL`. */
export async function logInAt(baseURL: string, email: string, password = demoPassword): Promise<StoredSession> {
  const response = await fetch(`${baseURL}${apiRoutes.auth.login.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`login of ${email} answered ${response.status}`);
  const { access, refresh, user, ...summary } = (await response.json()).data;
  return { access, refresh, user, summary };
}

/** A new student named `firstName` Student, made by `admin` (active at once), signed in. */
export async function newStudentAt(baseURL: string, admin: StoredSession, firstName: string): Promise<StoredSession> {
  const email = `${firstName.toLowerCase()}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.test`;
  const created = await fetch(`${baseURL}${apiRoutes.admin.createUser.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.access}` },
    body: JSON.stringify({ email, password: demoPassword, first_name: firstName, last_name: 'Student', user_type: 'student' }),
  });
  if (created.status !== 201) throw new Error(`making student ${firstName} answered ${created.status}`);
  return logInAt(baseURL, email);
}
