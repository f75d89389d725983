// WORKERS: several server processes on one port (cluster.ts), as an operator starts them.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database';
import { freePort } from '../test/free-port';
import { throwawayRedis } from '../test/throwaway-redis';

const serverDir = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mooz-cluster-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function spawnServer(env: Record<string, string>) {
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...inherited, HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = { output: '' };
  child.stdout!.on('data', (d) => (log.output += d));
  child.stderr!.on('data', (d) => (log.output += d));
  return { child, log };
}

/** One request on a connection of its own, so that the cluster hands each to a worker in turn. */
function get(port: number, url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: url, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

const childrenOf = (pid: number) =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1] === String(pid);
      } catch {
        return false;
      }
    });

describe('WORKERS', () => {
  it('refuses more than one server process without PostgreSQL and Redis, naming the variable', async () => {
    const { child, log } = spawnServer({ PORT: String(await freePort()), WORKERS: '2' });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(log.output).toContain('Invalid WORKERS: more than one server process needs DATABASE_URL and REDIS_URL');
  });

  it.runIf(process.env.DATABASE_URL)(
    'serves from two processes that refuse a logged-out token alike, and stops them all on SIGTERM',
    async () => {
      const database = await createTestDatabase();
      const url = database.url!;
      const redis = await throwawayRedis();
      const port = await freePort();
      let child: ChildProcess | undefined;
      try {
        const started = spawnServer({ PORT: String(port), WORKERS: '2', DATABASE_URL: url, REDIS_URL: redis.url, SEED_DEMO: '1' });
        child = started.child;
        for (let attempt = 0; ; attempt++) {
          if (child.exitCode !== null || attempt > 900) throw new Error(`the server did not come up:\n${started.log.output}`);
          if ((await get(port, '/api/health').catch(() => 0)) === 200 && childrenOf(child.pid!).length === 2) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }

        const login = await fetch(`http://127.0.0.1:${port}/api/auth/login/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'student@mooz.local', password: 'mooz-demo-123' }),
        });
        const { access, refresh } = ((await login.json()) as { data: { access: string; refresh: string } }).data;
        const headers = { authorization: `Bearer ${access}` };
        // Both workers answer, and both remember the token.
        expect(await Promise.all(Array.from({ length: 8 }, () => get(port, '/api/courses/', headers)))).toEqual(Array(8).fill(200));

        const out = await fetch(`http://127.0.0.1:${port}/api/auth/logout/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ refresh }),
        });
        expect(out.status).toBe(200);
        const loggedOutAt = Date.now();
        for (;;) {
          const statuses = await Promise.all(Array.from({ length: 8 }, () => get(port, '/api/courses/', headers)));
          if (statuses.every((status) => status === 401)) break;
          // Well before the cache would expire (5 s): the change bus, not time, refused it.
          expect(Date.now() - loggedOutAt).toBeLessThan(2000);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }

        const workers = childrenOf(child.pid!);
        const code = await new Promise<number | null>((resolve) => {
          child!.once('exit', resolve);
          child!.kill('SIGTERM');
        });
        expect(code).toBe(0);
        expect(workers.filter(existsProcess)).toEqual([]);
      } finally {
        if (child && child.exitCode === null) {
          for (const pid of childrenOf(child.pid!)) process.kill(Number(pid), 'SIGKILL');
          child.kill('SIGKILL');
        }
        await redis.stop();
        await database.close();
      }
    },
    60_000,
  );
});

function existsProcess(pid: string) {
  try {
    readFileSync(`/proc/${pid}/stat`);
    return true;
  } catch {
    return false;
  }
}
