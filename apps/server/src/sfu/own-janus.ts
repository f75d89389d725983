// `npm start` gives the whole product on one machine: with no JANUS_URLS, the server starts a Janus of
// its own when one is installed (configuration in DATA_DIR/janus, a generated API secret, stopped with
// the server). Without one, rooms stay peer to peer, and one line says how to add the SFU.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Config } from '../config';
import { janusBinary, startJanus, type JanusProcess } from './janus-process';

export async function startOwnJanus(config: Config, log: (line: string) => void): Promise<JanusProcess | null> {
  if (config.janus.urls.length) return null;
  if (!janusBinary()) {
    log(`No SFU: rooms are limited to a peer-to-peer mesh of ${config.janus.meshMaxPeople}+ people; 'apt-get install -y janus' (or JANUS_URLS) adds large classes`);
    return null;
  }
  const apiSecret = config.janus.apiSecret ?? randomBytes(24).toString('base64url');
  try {
    const janus = await startJanus({ folder: join(config.dataDir, 'janus'), apiSecret });
    config.janus.urls = [janus.url];
    config.janus.apiSecret = apiSecret;
    return janus;
  } catch (error) {
    log(`No SFU: Janus did not start (${(error as Error).message}); rooms are limited to a peer-to-peer mesh`);
    return null;
  }
}
