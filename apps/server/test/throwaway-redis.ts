// A real redis-server of the test's own on a free port, so a test can stop it and start it again (an
// outage) without touching the Redis other tests share. It keeps nothing on disk, as in CI.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { once } from 'node:events';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

async function answers(port: number): Promise<boolean> {
  const { Socket } = await import('node:net');
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.connect(port, '127.0.0.1');
  });
}

export interface ThrowawayRedis {
  url: string;
  port: number;
  /** Starts (or restarts) the server and waits until it answers PING. */
  start(): Promise<void>;
  /** Kills the server at once, as a crash would. */
  stop(): Promise<void>;
}

export async function throwawayRedis(): Promise<ThrowawayRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const redis: ThrowawayRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      if (child) return;
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      for (let attempt = 0; attempt < 100; attempt++) {
        if (await answers(port)) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`redis-server did not start on port ${port}`);
    },
    async stop() {
      const running = child;
      if (!running) return;
      child = null;
      if (running.exitCode === null) {
        running.kill('SIGKILL');
        await once(running, 'exit');
      }
    },
  };
  await redis.start();
  return redis;
}
