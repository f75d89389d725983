import { useSyncExternalStore } from 'react';
import { isSignedIn, onAuthChange, readStoredUser, type StoredUser } from './stored-auth';

export function useSignedIn(): boolean {
  return useSyncExternalStore(onAuthChange, isSignedIn);
}

let cachedRaw: string | null = null;
let cachedUser: StoredUser | null = null;

/** The stored user record; the same object until the record changes, as useSyncExternalStore needs. */
export function useStoredUser(): StoredUser | null {
  return useSyncExternalStore(onAuthChange, () => {
    const user = readStoredUser();
    const raw = user === null ? null : JSON.stringify(user);
    if (raw !== cachedRaw) {
      cachedRaw = raw;
      cachedUser = user;
    }
    return cachedUser;
  });
}
