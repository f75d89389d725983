// Who this browser tab is in a meeting: the display name kept in local storage, and the peer id — this
// tab's id in the room, the handshake's `sessionId` — kept in session storage (so a reload keeps it, a
// new tab gets its own).
import { storageKeys } from '@mooz/contract/config';
import { readStorage, writeStorage } from '../../lib/storage';
import type { StoredUser } from '../../lib/stored-auth';
import { randomId } from '../../lib/random-id';

export function meetingPeerId(): string {
  const stored = readStorage(storageKeys.sessionId, 'session');
  if (stored) return stored;
  const created = randomId();
  writeStorage(storageKeys.sessionId, created, 'session');
  return created;
}

/** The saved display name, else the account's name. */
export function savedUserName(user: StoredUser | null): string {
  const saved = readStorage(storageKeys.userName)?.trim();
  if (saved) return saved;
  return [user?.first_name, user?.last_name].filter(Boolean).join(' ').trim();
}

export function saveUserName(name: string): void {
  writeStorage(storageKeys.userName, name.trim());
}

/**
 * The room id in what someone pasted: a bare id, or an invite link like https://host/meeting/<id>.
 * Null when there is none.
 */
export function roomIdFromInput(input: string): string | null {
  const text = input.trim();
  if (!text) return null;
  const fromPath = (path: string) => {
    const match = /\/meeting\/([^/?#\s]+)/.exec(path);
    return match ? decodeURIComponent(match[1]!) : null;
  };
  if (/^https?:\/\//i.test(text)) {
    try {
      return fromPath(new URL(text).pathname);
    } catch {
      return null;
    }
  }
  if (text.includes('/')) return fromPath(text);
  return /^[\w-]{1,128}$/.test(text) ? text : null;
}

export function inviteLink(roomId: string, origin = window.location.origin): string {
  return `${origin}/meeting/${encodeURIComponent(roomId)}`;
}
