// A Mooz server of a spec's own, for specs that need another configuration than the suite's shared
// server (an SFU, a TURN relay): its own port, data folder and environment, demo data seeded, stopped
// (by pid) when the spec is done.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiRoutes } from '@mooz/contract/api-routes';

export interface OwnServer {
  baseURL: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startOwnServer(env: Record<string, string>, timeoutMs = 90_000): Promise<OwnServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'mooz-e2e-own-'));
  const baseURL = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn('node_modules/.bin/tsx', ['apps/server/src/main.ts'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_DEMO: '1',
      ICE_SERVERS: '[]',
      RATE_LIMIT_SCALE: '20',
      PASSWORD_HASH_COST: 'test',
      LOG_LEVEL: 'warn',
      ...env,
    },
    // Its log (stdout) is shown with MOOZ_E2E_SERVER_LOG=1, its warnings being all it logs.
    stdio: ['ignore', process.env.MOOZ_E2E_SERVER_LOG ? 'inherit' : 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
    if (process.env.MOOZ_E2E_SERVER_LOG) process.stderr.write(chunk);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${errors}`);
    try {
      if ((await fetch(`${baseURL}${apiRoutes.health.path}`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start within ${timeoutMs} ms: ${errors}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    baseURL,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
