// The signed-in session as the browser keeps it: the access and refresh tokens and the user record
// (role, ability rules, trial fields) in localStorage. Whoever changes them (login, logout, profile refresh) calls announceAuthChange()
// so the ability, the guards and the navbar follow.
import { storageKeys } from '@mooz/contract/config';
import type { Rule } from '@mooz/contract/permissions';
import { readJson, readStorage, removeStorage } from './storage';

const authChangedEvent = 'mooz:auth-changed';

/** The stored user record; only the fields the shell reads are typed. */
export interface StoredUser {
  id?: number;
  email?: string;
  first_name?: string;
  last_name?: string;
  user_type?: string;
  role?: string;
  ability?: Rule[];
  [field: string]: unknown;
}

export function readStoredUser(): StoredUser | null {
  const user = readJson<unknown>(storageKeys.user);
  return user !== null && typeof user === 'object' && !Array.isArray(user) ? (user as StoredUser) : null;
}

export function isSignedIn(): boolean {
  return Boolean(readStorage(storageKeys.access)) && readStoredUser() !== null;
}

/** Tokens this close to their end count as expired already: clocks differ, and requests take time. */
const accessTokenSkewSeconds = 10;

/**
 * Whether a JWT's `exp` is past (within the skew), read without verifying: the server still checks
 * the token, this only saves sending one it will refuse. A token it cannot read is not called expired.
 */
export function tokenExpired(token: string, nowMs = Date.now()): boolean {
  try {
    const payload = token.split('.')[1];
    if (!payload) return false;
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' && exp - accessTokenSkewSeconds <= nowMs / 1000;
  } catch {
    return false;
  }
}

export function announceAuthChange(): void {
  window.dispatchEvent(new Event(authChangedEvent));
}

/** Forget the session locally: logout clears everything whether the server call worked or not. */
export function clearStoredAuth(): void {
  removeStorage(storageKeys.access);
  removeStorage(storageKeys.refresh);
  removeStorage(storageKeys.user);
  announceAuthChange();
}

/** Calls `listener` when this tab announces a change or another tab edits the session keys. */
export function onAuthChange(listener: () => void): () => void {
  const sessionKeys: string[] = [storageKeys.access, storageKeys.refresh, storageKeys.user];
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || sessionKeys.includes(event.key)) listener();
  };
  window.addEventListener(authChangedEvent, listener);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(authChangedEvent, listener);
    window.removeEventListener('storage', onStorage);
  };
}
