// Browser storage that never throws: private modes and full quotas must not take the app down.
export function readStorage(key: string, store: 'local' | 'session' = 'local'): string | null {
  try {
    return (store === 'local' ? window.localStorage : window.sessionStorage).getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string, store: 'local' | 'session' = 'local'): void {
  try {
    (store === 'local' ? window.localStorage : window.sessionStorage).setItem(key, value);
  } catch {
    // Storage full or disabled: the preference lives for this page only.
  }
}

export function removeStorage(key: string, store: 'local' | 'session' = 'local'): void {
  try {
    (store === 'local' ? window.localStorage : window.sessionStorage).removeItem(key);
  } catch {
    // Nothing stored, nothing to remove.
  }
}

export function readJson<T = unknown>(key: string): T | null {
  const raw = readStorage(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}
