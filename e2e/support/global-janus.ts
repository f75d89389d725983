// One Janus for the end-to-end run (e2e/large-class.spec.ts), in a network namespace of its own, made
// before any browser starts: a veth pair appearing while Chromium runs is a network change to it, and
// pages of other specs then fail with ERR_NETWORK_CHANGED. Its URL and API secret reach the workers in
// MOOZ_E2E_JANUS_URL and MOOZ_E2E_JANUS_SECRET (and this machine's end of its veth pair, for a TURN
// relay that reaches it, in MOOZ_E2E_JANUS_HOST_ADDRESS); it is stopped, and the namespace removed, after the run.
import { startJanusInNamespace } from '../../apps/server/test/janus-namespace';

export default async function globalSetup() {
  const janus = await startJanusInNamespace({ rtpPortRange: '32000-32299' });
  process.env.MOOZ_E2E_JANUS_URL = janus.url;
  process.env.MOOZ_E2E_JANUS_SECRET = janus.apiSecret;
  process.env.MOOZ_E2E_JANUS_HOST_ADDRESS = janus.hostAddress;
  return async () => {
    await janus.stop();
  };
}
