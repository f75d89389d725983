// A browser context whose pages start signed in, as the app leaves local storage after a login, for
// tests and benchmarks that log in through the API instead of the form.
import type { BrowserContext } from '@playwright/test';
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
