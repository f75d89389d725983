// The one-click unsubscribe token of a mail: whose mail and which kind, signed with a key derived from
// the server's secret, so it needs no login and cannot be made for someone else or another kind. It
// does not expire: a mail's unsubscribe link has to work as long as the mail is kept.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { notificationKind, type NotificationKind } from '@mooz/contract/notifications';

const signature = (secret: string, userId: number, kind: string) =>
  createHmac('sha256', secret).update(`mooz-unsubscribe:${userId}:${kind}`).digest('base64url');

export const unsubscribeToken = (secret: string, userId: number, kind: NotificationKind) => `${userId}.${kind}.${signature(secret, userId, kind)}`;

/** Whose and which kind, or null for a token we did not make. */
export function readUnsubscribeToken(secret: string, token: string): { userId: number; kind: NotificationKind } | null {
  const [id, kind, sig, ...rest] = token.split('.');
  if (rest.length || !id || !/^\d{1,10}$/.test(id) || !sig) return null;
  const parsed = notificationKind.safeParse(kind);
  if (!parsed.success) return null;
  const userId = Number(id);
  const expected = Buffer.from(signature(secret, userId, parsed.data));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { userId, kind: parsed.data };
}
