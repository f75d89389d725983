// POST /api/auth/login/ and keep the session the way spec §3/§4 describes: the tokens and the
// user record (with its `ability` rules and `role`) in localStorage.
import { storageKeys } from '@mooz/contract/config';
import { messages } from '@mooz/contract/messages';
import { announceSessionChange } from '../../lib/session';
import { writeStorage } from '../../lib/storage';

export interface LoginValues {
  email: string;
  password: string;
}

export class LoginError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fieldErrors: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

interface LoginData {
  access: string;
  refresh: string;
  user_type?: string;
  is_trial?: boolean;
  has_purchased?: boolean;
  trial_ends_at?: string | null;
  trial_remaining_seconds?: number | null;
  user?: Record<string, unknown>;
}

export async function logIn(values: LoginValues): Promise<void> {
  let response: Response;
  try {
    response = await fetch('/api/auth/login/', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(values),
    });
  } catch {
    throw new LoginError(messages.connectionFailed, 0);
  }
  const body = (await response.json().catch(() => null)) as {
    data?: LoginData;
    message?: string;
    errors?: Record<string, string[]>;
  } | null;
  if (!response.ok || !body?.data?.access) {
    throw new LoginError(body?.message ?? messages.unexpected, response.status, body?.errors);
  }
  const { access, refresh, user, ...summary } = body.data;
  writeStorage(storageKeys.access, access);
  writeStorage(storageKeys.refresh, refresh);
  writeStorage(storageKeys.user, JSON.stringify({ ...summary, ...user }));
  announceSessionChange();
}
