// The Janus instances of the end-to-end run, each in a network namespace of its own, made before any
// browser starts: a veth pair appearing while Chromium runs is a network change to it, and pages of
// other specs then fail with ERR_NETWORK_CHANGED.
// - One shared (e2e/turn-relay.spec.ts): MOOZ_E2E_JANUS_URL, MOOZ_E2E_JANUS_SECRET, and this machine's
//   end of its veth pair, for a TURN relay that reaches it, in MOOZ_E2E_JANUS_HOST_ADDRESS.
// - A pair for the large class (e2e/large-class.spec.ts), which kills the one holding its room:
//   MOOZ_E2E_JANUS_PAIR (their URLs, comma-separated; the same secret) and MOOZ_E2E_JANUS_PAIR_PIDS.
// All are stopped, and the namespaces removed, after the run. A run of the `pages` project alone
// (scripts/e2e.mjs sets MOOZ_E2E_WITHOUT_JANUS) needs none.
import { randomBytes } from 'node:crypto';
import { startJanusInNamespace } from '../../apps/server/test/janus-namespace';

export default async function globalSetup() {
  if (process.env.MOOZ_E2E_WITHOUT_JANUS) return;
  const apiSecret = randomBytes(18).toString('base64url');
  const [shared, first, second] = await Promise.all([
    startJanusInNamespace({ rtpPortRange: '32000-32299', apiSecret }),
    startJanusInNamespace({ rtpPortRange: '32300-32599', apiSecret }),
    startJanusInNamespace({ rtpPortRange: '32600-32899', apiSecret }),
  ]);
  process.env.MOOZ_E2E_JANUS_URL = shared.url;
  process.env.MOOZ_E2E_JANUS_SECRET = apiSecret;
  process.env.MOOZ_E2E_JANUS_HOST_ADDRESS = shared.hostAddress;
  process.env.MOOZ_E2E_JANUS_PAIR = `${first.url},${second.url}`;
  process.env.MOOZ_E2E_JANUS_PAIR_PIDS = `${first.pid},${second.pid}`;
  return async () => {
    await Promise.all([shared, first, second].map((janus) => janus.stop()));
  };
}
