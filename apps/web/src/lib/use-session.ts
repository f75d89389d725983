import { useSyncExternalStore } from 'react';
import { isSignedIn, onSessionChange, readStoredUser, type StoredUser } from './session';

export function useSignedIn(): boolean {
  return useSyncExternalStore(onSessionChange, isSignedIn);
}

let cachedRaw: string | null = null;
let cachedUser: StoredUser | null = null;

/** The stored user record; the same object until the record changes, as useSyncExternalStore needs. */
export function useStoredUser(): StoredUser | null {
  return useSyncExternalStore(onSessionChange, () => {
    const user = readStoredUser();
    const raw = user === null ? null : JSON.stringify(user);
    if (raw !== cachedRaw) {
      cachedRaw = raw;
      cachedUser = user;
    }
    return cachedUser;
  });
}
