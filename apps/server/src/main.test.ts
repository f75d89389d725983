// The real entry point as an operator runs it: start, serve, stop on SIGTERM, start again.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/free-port';
import { createPglite } from './db/client';
import { demoEmails } from './seed';

const serverDir = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mooz-main-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The real entry point on the embedded database of this test, its output collected. */
function spawnServer(port: number, seedDemo: '0' | '1') {
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: seedDemo, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = { output: '' };
  child.stdout!.on('data', (d) => (log.output += d));
  child.stderr!.on('data', (d) => (log.output += d));
  return { child, log };
}

async function start(port: number): Promise<ChildProcess> {
  const { child, log } = spawnServer(port, '1');
  for (let attempt = 0; attempt < 900; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log.output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become healthy:\n${log.output}`);
}

const stop = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });

/** Starts a server expected to refuse to run; resolves with its exit code and what it printed. */
function startRefused(port: number): Promise<{ code: number | null; output: string }> {
  const { child, log } = spawnServer(port, '0');
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output: log.output })));
}

async function countRows() {
  const db = await createPglite(path.join(dataDir, 'pgdata'));
  try {
    const users = await db.query<{ n: number }>('select count(*)::int as n from users');
    const courses = await db.query<{ n: number }>('select count(*)::int as n from courses');
    return { users: users.rows[0]!.n, courses: courses.rows[0]!.n };
  } finally {
    await db.close();
  }
}

describe('the server process', () => {
  it('stops cleanly on SIGTERM, keeps its data across a restart without seeding twice, and refuses a second server on its DATA_DIR', async () => {
    const port = await freePort();
    const first = await start(port);
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'student@mooz.local', password: 'mooz-demo-123' }),
    });
    expect(login.status).toBe(200);

    // A second server on the same embedded database would lose acknowledged writes: it stops.
    const refused = await startRefused(await freePort());
    expect(refused.code).toBe(1);
    expect(refused.output.trim()).toMatch(new RegExp(`^DATA_DIR .* is in use by process ${first.pid} on .*: stop it first`));
    expect(refused.output.trim().split('\n')).toHaveLength(1);

    expect(await stop(first)).toBe(0);
    const afterFirst = await countRows();
    // The demo accounts, one each.
    expect(afterFirst.users).toBe(Object.keys(demoEmails).length);
    expect(afterFirst.courses).toBeGreaterThanOrEqual(3);

    const second = await start(port);
    expect(await stop(second)).toBe(0);
    expect(await countRows()).toEqual(afterFirst);
  }, 240_000);
});
