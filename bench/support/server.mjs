// What every benchmark needs: a free port, the project's own server started on it (PGlite by
// default, PostgreSQL or Redis when asked), its memory, percentiles and the machine it ran on.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';

export const root = path.resolve(import.meta.dirname, '../..');

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** How many times `list` holds, their p50, p95 and p99, and the slowest. */
export function latencySummary(list) {
  const sorted = [...list].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted.at(-1) };
}

/**
 * Fetches `url` (with `init`) and reads its JSON: how long that took, in ms, and the body; an error
 * answer throws. On a 401, `signInAgain` (when given) may renew the token `init` carries and answer
 * true, and the request is made again.
 */
export async function timedJson(url, init = {}, signInAgain = async () => false) {
  const started = performance.now();
  const response = await fetch(url, init);
  if (response.status === 401 && (await signInAgain())) return timedJson(url, init, signInAgain);
  const body = await response.json();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${body.message}`);
  return { ms: performance.now() - started, body };
}

/** The value after the option at `argv[index]` ("--runs 3"); a missing one is refused by name. */
export function optionValue(argv, index) {
  const next = argv[index + 1];
  if (next === undefined) throw new Error(`${argv[index]} needs a value`);
  return next;
}

// Node flags for the servers a bench starts, for looking inside them: BENCH_NODE_ARGS="--cpu-prof
// --cpu-prof-dir=/tmp/prof" or "--trace-gc" (NODE_OPTIONS refuses most of these).
const serverNodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Waits until `url` answers 2xx, or the child exits. */
async function waitUntilUp(child, url) {
  for (let i = 0; i < 900; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not come up`);
}

function stopper(child, cleanup = () => {}) {
  return async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
    cleanup();
  };
}

/**
 * Starts the project's own server on a free port with demo data and raised rate limits.
 * `databaseUrl` / `redisUrl` choose PostgreSQL / the Redis adapter; PGlite in a temp folder otherwise,
 * or in `dataDir` when given (a database prepared beforehand; the caller removes it).
 */
export async function startServer({ databaseUrl = '', redisUrl = '', env = {}, dataDir: givenDataDir = '' } = {}) {
  const port = await freePort();
  const dataDir = givenDataDir || mkdtempSync(path.join(os.tmpdir(), 'mooz-bench-'));
  const child = spawn(process.execPath, [...serverNodeArgs, '--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: '1',
      LOG_LEVEL: 'warn',
      // Thousands of requests from one address would otherwise hit the per-address limits.
      RATE_LIMIT_SCALE: '1000',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      // Its own key space, so a shared Redis keeps nothing of other servers' rooms mixed in.
      REDIS_PREFIX: `mooz-bench-${randomUUID()}:`,
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  // The contract's apiRoutes.health.path, written out: bundle.mjs runs on plain Node (no tsx) and
  // imports this file, and Node 20 cannot import the contract's TypeScript. bench's only such path.
  // eslint-disable-next-line no-restricted-syntax
  await waitUntilUp(child, `${url}/api/health`);
  return { url, pid: child.pid, stop: stopper(child, () => givenDataDir || rmSync(dataDir, { recursive: true, force: true })) };
}

/** Starts a Node script of bench/ as its own process (a baseline server), told its port by PORT. */
export async function startScript(script, healthPath = '/') {
  const port = await freePort();
  const child = spawn(process.execPath, [...serverNodeArgs, path.join(root, 'bench', script)], {
    cwd: root,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(child, `${url}${healthPath}`);
  return { url, pid: child.pid, stop: stopper(child) };
}

/** Resident memory of a local process, from /proc (Linux). */
export function rssOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb * 1024 : null;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a local process has used so far, from /proc (Linux). */
export function cpuSecondsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return ticks / 100;
  } catch {
    return null;
  }
}

/** One line naming the machine, printed beside every figure. */
export function machine() {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load ${os.loadavg()[0].toFixed(2)}`;
}

/** A fresh database `name` on a PostgreSQL server, dropped by the returned function. */
export async function freshDatabase(url, name) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
