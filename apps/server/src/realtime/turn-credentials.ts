// TURN credentials of the TURN REST API scheme (coturn's use-auth-secret / static-auth-secret): the
// username is `<unix expiry>:<who>` and the password base64(HMAC-SHA1(secret, username)). coturn
// checks them with the same secret and refuses them after the expiry, so nothing is stored and nothing
// needs revoking: a credential dies by itself TURN_TTL seconds after it was made.
import { createHmac } from 'node:crypto';
import type { IceServer, IceServersAnswer } from '@mooz/contract/realtime';

interface TurnSettings {
  urls: string[];
  secret: string;
  ttlSeconds: number;
}

interface TurnCredential {
  urls: string[];
  username: string;
  credential: string;
}

/**
 * A credential for `who` (a user id; the SFU may use its own name), valid `ttlSeconds` from `now`
 * (milliseconds, as Date.now()).
 */
export function turnCredential(turn: TurnSettings, who: string | number, now = Date.now()): TurnCredential {
  const expiry = Math.floor(now / 1000) + turn.ttlSeconds;
  const username = `${expiry}:${who}`;
  return { urls: [...turn.urls], username, credential: createHmac('sha1', turn.secret).update(username).digest('base64') };
}

interface IceSettings {
  iceServers: IceServer[];
  turn: TurnSettings | null;
  iceTransportPolicy: 'all' | 'relay';
}

/** What GET /api/ice-servers/ answers a user: the listed servers, then TURN with a credential of theirs; the policy only when relay. */
export function iceServersFor(settings: IceSettings, userId: number, now = Date.now()): IceServersAnswer {
  const data = settings.turn ? [...settings.iceServers, turnCredential(settings.turn, userId, now)] : settings.iceServers;
  return settings.iceTransportPolicy === 'relay' ? { data, ice_transport_policy: 'relay' } : { data };
}
