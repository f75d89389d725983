// `npm start` gives the whole product on one machine: with no JANUS_URLS, the server starts a Janus of
// its own when one is installed (configuration in DATA_DIR/janus, a generated API secret, stopped with
// the server). Without one, rooms stay peer to peer, and one line says how to add the SFU.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Config } from '../config';
import { turnCredential } from '../realtime/turn-credentials';
import { janusBinary, startJanus, type JanusOptions, type JanusProcess } from './janus-process';

/** Janus asks coturn for a relay at each connection, for as long as it runs: its credential lasts a year. */
const JANUS_TURN_TTL_SECONDS = 365 * 24 * 60 * 60;

/** The first TURN URL as Janus's nat settings take it, with a credential of its own, so relayed students reach it too. */
export function janusTurn(config: Config): JanusOptions['turn'] {
  if (!config.turn) return undefined;
  const url = config.turn.urls.find((candidate) => /^turn:/.test(candidate));
  const match = url && /^turn:([^:?]+)(?::(\d+))?(?:\?transport=(udp|tcp))?/.exec(url);
  if (!match) return undefined;
  const { username, credential } = turnCredential({ ...config.turn, ttlSeconds: JANUS_TURN_TTL_SECONDS }, 'janus');
  return { server: match[1]!, port: Number(match[2] ?? 3478), transport: (match[3] as 'udp' | 'tcp' | undefined) ?? 'udp', user: username, password: credential };
}

export async function startOwnJanus(config: Config, log: (line: string) => void): Promise<JanusProcess | null> {
  if (config.janus.urls.length) return null;
  if (!janusBinary()) {
    log(`No SFU: rooms are limited to a peer-to-peer mesh of ${config.janus.meshMaxPeople}+ people; 'apt-get install -y janus' (or JANUS_URLS) adds large classes`);
    return null;
  }
  const apiSecret = config.janus.apiSecret ?? randomBytes(24).toString('base64url');
  try {
    const janus = await startJanus({ folder: join(config.dataDir, 'janus'), apiSecret, turn: janusTurn(config) });
    config.janus.urls = [janus.url];
    config.janus.apiSecret = apiSecret;
    return janus;
  } catch (error) {
    log(`No SFU: Janus did not start (${(error as Error).message}); rooms are limited to a peer-to-peer mesh`);
    return null;
  }
}
