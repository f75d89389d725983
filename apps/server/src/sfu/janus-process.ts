// A Janus WebRTC Server (Debian's `janus`) that we start ourselves: its configuration written into a
// folder of ours, only the VideoRoom plugin and the WebSocket API (bound to one private address, behind
// an API secret), stopped with us. Janus is GPLv3: it stays a separate process we talk to, never linked.
// Used by the server when JANUS_URLS is unset (sfu.ts), by the tests and by the class-scale bench.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync, createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { accessSync, constants } from 'node:fs';

const JANUS_LIB = '/usr/lib/x86_64-linux-gnu/janus';

export interface JanusOptions {
  /** Where the configuration and the log go (DATA_DIR/janus for the server's own). */
  folder: string;
  apiSecret: string;
  /** The address the WebSocket API listens on; 127.0.0.1 unless Janus runs in a network namespace. */
  host?: string;
  /** Free otherwise. */
  wsPort?: number;
  /** UDP ports for media, `min-max`; a small range keeps a test's footprint small. */
  rtpPortRange?: string;
  /** Gather ICE candidates on these interfaces only (a test's veth inside its namespace). */
  iceEnforceList?: string;
  /** Run inside `ip netns exec <namespace>` (tests: Janus gathers nothing on loopback). */
  namespace?: string;
  /** A TURN server Janus itself uses, so relayed students reach it (TURN REST credentials). */
  turn?: { server: string; port: number; transport: 'udp' | 'tcp'; user: string; password: string };
}

export interface JanusProcess {
  /** The WebSocket API's URL. */
  url: string;
  readonly pid: number | undefined;
  /** Whether the process is still running. */
  readonly running: boolean;
  /** Ends the process (SIGTERM, then SIGKILL after a grace) and waits for it. */
  stop(): Promise<void>;
  /** Ends it at once, as a crash would (failover tests). */
  kill(): void;
}

/** The janus binary, if this machine has one. */
export function janusBinary(): string | null {
  for (const path of ['/usr/bin/janus', '/usr/local/bin/janus']) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return null;
}

function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const quote = (value: string) => JSON.stringify(value);

function writeConfig(options: JanusOptions, wsPort: number) {
  const conf = join(options.folder, 'conf');
  mkdirSync(conf, { recursive: true });
  const nat = [
    'nice_debug = false',
    options.iceEnforceList ? `ice_enforce_list = ${quote(options.iceEnforceList)}` : 'ice_ignore_list = "vmnet,docker,veth"',
  ];
  if (options.turn) {
    nat.push(
      `turn_server = ${quote(options.turn.server)}`,
      `turn_port = ${options.turn.port}`,
      `turn_type = ${quote(options.turn.transport)}`,
      `turn_user = ${quote(options.turn.user)}`,
      `turn_pwd = ${quote(options.turn.password)}`,
    );
  }
  writeFileSync(
    join(conf, 'janus.jcfg'),
    `general: {
  configs_folder = ${quote(conf)}
  plugins_folder = ${quote(`${JANUS_LIB}/plugins`)}
  transports_folder = ${quote(`${JANUS_LIB}/transports`)}
  events_folder = ${quote(`${JANUS_LIB}/events`)}
  loggers_folder = ${quote(`${JANUS_LIB}/loggers`)}
  debug_level = 3
  api_secret = ${quote(options.apiSecret)}
  session_timeout = 60
  server_name = "mooz-sfu"
}
media: {
  rtp_port_range = ${quote(options.rtpPortRange ?? '20000-40000')}
}
nat: {
  ${nat.join('\n  ')}
}
plugins: {
  disable = "libjanus_audiobridge.so,libjanus_duktape.so,libjanus_echotest.so,libjanus_lua.so,libjanus_nosip.so,libjanus_recordplay.so,libjanus_sip.so,libjanus_streaming.so,libjanus_textroom.so,libjanus_videocall.so,libjanus_voicemail.so"
}
transports: {
  disable = "libjanus_http.so,libjanus_mqtt.so,libjanus_nanomsg.so,libjanus_pfunix.so,libjanus_rabbitmq.so"
}
events: {
  broadcast = false
}
loggers: {
  disable = "libjanus_jsonlog.so"
}
`,
  );
  writeFileSync(
    join(conf, 'janus.transport.websockets.jcfg'),
    `general: {
  json = "plain"
  ws = true
  ws_port = ${wsPort}
  ws_ip = ${quote(options.host ?? '127.0.0.1')}
  wss = false
}
admin: {
  admin_ws = false
  admin_wss = false
}
`,
  );
  // No static rooms: every room is made by our server, with its own secret.
  writeFileSync(join(conf, 'janus.plugin.videoroom.jcfg'), 'general: {\n}\n');
  return conf;
}

/** Starts Janus and resolves once its WebSocket API accepts connections (within `timeoutMs`). */
export async function startJanus(options: JanusOptions, timeoutMs = 15_000): Promise<JanusProcess> {
  const binary = janusBinary();
  if (!binary) throw new Error('janus is not installed');
  const host = options.host ?? '127.0.0.1';
  const wsPort = options.wsPort ?? (await freePort());
  const conf = writeConfig(options, wsPort);
  const args = ['-F', conf, '-C', join(conf, 'janus.jcfg'), '-o', '-D'];
  const [command, commandArgs] = options.namespace
    ? ['ip', ['netns', 'exec', options.namespace, binary, ...args]]
    : [binary, args];
  const log = createWriteStream(join(options.folder, 'janus.log'), { flags: 'a' });
  const child: ChildProcess = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  // Janus never keeps the server's process alive: the server ends it (stop, kill, or on exit).
  child.unref();
  (child.stdout as unknown as { unref?(): void } | null)?.unref?.();
  (child.stderr as unknown as { unref?(): void } | null)?.unref?.();
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const url = `ws://${host}:${wsPort}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`janus exited at start (see ${join(options.folder, 'janus.log')})`);
    if (await answers(url)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`janus did not listen on ${url} within ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    get pid() {
      return child.pid;
    },
    get running() {
      return !exited;
    },
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exit;
      clearTimeout(timer);
    },
    kill() {
      if (!exited) child.kill('SIGKILL');
    },
  };
}

/** Whether something accepts TCP connections at the WebSocket URL's address. */
async function answers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
