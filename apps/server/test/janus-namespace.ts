// A throwaway Janus for tests and benches. Janus gathers no ICE candidates on loopback, so it runs in
// a network namespace of its own, joined to this machine by a veth pair with a /30 of its own: the
// browsers (and the server's API client) reach it at the namespace's address, and no traffic leaves
// the machine. Needs root (ip netns); everything made is removed by stop().
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startJanus, type JanusProcess } from '../src/sfu/janus-process';

export interface NamespacedJanus extends JanusProcess {
  apiSecret: string;
  /** The namespace's address (where Janus's media and API are). */
  address: string;
  /** This machine's end of the veth pair: what reaches Janus from outside the namespace (a TURN relay). */
  hostAddress: string;
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

/** A /30 in 10.213.0.0/16 not used by another namespace of ours on this machine. */
function freeSubnet(): number {
  const used = execFileSync('ip', ['-4', '-o', 'addr'], { encoding: 'utf8' });
  for (;;) {
    const block = 1 + Math.floor(Math.random() * 16_000);
    const third = Math.floor((block * 4) / 256);
    const fourth = (block * 4) % 256;
    if (!used.includes(`10.213.${third}.${fourth + 1}/`)) return block;
  }
}

export async function startJanusInNamespace(options: { rtpPortRange?: string; apiSecret?: string } = {}): Promise<NamespacedJanus> {
  const tag = randomBytes(3).toString('hex');
  const namespace = `mooz-${tag}`;
  const hostSide = `mz${tag}h`;
  const innerSide = `mz${tag}n`;
  const block = freeSubnet();
  const base = `10.213.${Math.floor((block * 4) / 256)}.`;
  const fourth = (block * 4) % 256;
  const hostAddress = `${base}${fourth + 1}`;
  const address = `${base}${fourth + 2}`;
  const folder = mkdtempSync(join(tmpdir(), 'mooz-janus-'));
  const apiSecret = options.apiSecret ?? randomBytes(18).toString('base64url');

  const cleanUp = () => {
    try {
      ip('link', 'del', hostSide);
    } catch {
      // already gone with the namespace
    }
    try {
      ip('netns', 'del', namespace);
    } catch {
      // never made
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    ip('netns', 'add', namespace);
    ip('link', 'add', hostSide, 'type', 'veth', 'peer', 'name', innerSide);
    ip('link', 'set', innerSide, 'netns', namespace);
    ip('addr', 'add', `${hostAddress}/30`, 'dev', hostSide);
    ip('link', 'set', hostSide, 'up');
    ip('netns', 'exec', namespace, 'ip', 'addr', 'add', `${address}/30`, 'dev', innerSide);
    ip('netns', 'exec', namespace, 'ip', 'link', 'set', innerSide, 'up');
    ip('netns', 'exec', namespace, 'ip', 'link', 'set', 'lo', 'up');
    ip('netns', 'exec', namespace, 'ip', 'route', 'add', 'default', 'via', hostAddress);
    const janus = await startJanus({
      folder,
      apiSecret,
      host: address,
      namespace,
      iceEnforceList: innerSide,
      rtpPortRange: options.rtpPortRange ?? '30000-30999',
    });
    return {
      apiSecret,
      address,
      hostAddress,
      url: janus.url,
      get pid() {
        return janus.pid;
      },
      get running() {
        return janus.running;
      },
      kill: () => janus.kill(),
      async stop() {
        await janus.stop();
        cleanUp();
      },
    };
  } catch (error) {
    cleanUp();
    throw error;
  }
}
