#!/usr/bin/env -S npx tsx
// API benchmark: what an outside client gets from the catalogue and the sessions list, against a bare
// Fastify "hello" (bench/hello.mjs) measured in the same run, alternating, so a busy machine slows
// both. Each target gets --connections connections for --duration seconds (autocannon); it prints
// requests per second, p50/p99 latency, errors, the server's CPU per request (from /proc, the figure
// that survives a busy machine) and the ratio to the hello. It never fails on time. Its last line is
// the BENCH-SUMMARY that `npm run bench` collects: each endpoint and database against its goal
// (≥ 0.5 × the hello with p99 < 20 ms and no errors on PostgreSQL, ≥ 0.25 × with no errors on PGlite).
//
//   npx tsx bench/api.mjs                                  # ours on PGlite (the embedded default)
//   npx tsx bench/api.mjs --postgres postgres://postgres@127.0.0.1:5432/postgres   # and on PostgreSQL
//   npx tsx bench/api.mjs --duration 5 --connections 50 --rounds 1
//   npx tsx bench/api.mjs --postgres postgres://... --redis redis://127.0.0.1:6379   # and WORKERS processes
//
// Every request says what Chromium says it accepts (Accept-Encoding: gzip, deflate, br, zstd), as the
// web app's requests do, so a kept answer goes compressed (http/shared-answer.ts); the hello gets the
// same header. The two endpoints on PostgreSQL are measured once more with no Accept-Encoding, as a
// client that takes no compression (curl, a script) gets them: printed for comparison, no goal.
//
// With --postgres (or BENCH_DATABASE_URL) it makes a fresh database on that server and drops it after.
// With --redis (or BENCH_REDIS_URL) as well, it also measures the server run as --workers processes
// (WORKERS, node:cluster; one per core by default) on that database, sharing that Redis.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import { apiRoutes } from '../packages/contract/src/api-routes.ts';
import { cpuSecondsOf, freshDatabase, machine, startScript, startServer } from './support/server.mjs';

/** A process and its descendants (the cluster's workers), from /proc (Linux). */
function processTree(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    try {
      for (const task of readFileSync(`/proc/${pids[i]}/task/${pids[i]}/children`, 'utf8').trim().split(/\s+/)) if (task) pids.push(Number(task));
    } catch {
      // gone, or not Linux
    }
  }
  return pids;
}

/** CPU seconds a server has used so far, its workers' included; null where /proc cannot say. */
function serverCpuSeconds(pid) {
  let total = 0;
  for (const each of processTree(pid)) {
    const seconds = cpuSecondsOf(each);
    if (seconds === null) return null;
    total += seconds;
  }
  return total;
}

function parseArgs(argv) {
  const options = {
    duration: 10,
    connections: 100,
    rounds: 2,
    postgres: process.env.BENCH_DATABASE_URL ?? '',
    redis: process.env.BENCH_REDIS_URL ?? '',
    workers: availableParallelism(),
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => argv[++i];
    if (arg === '--duration') options.duration = Number(value());
    else if (arg === '--connections') options.connections = Number(value());
    else if (arg === '--rounds') options.rounds = Number(value());
    else if (arg === '--postgres') options.postgres = value();
    else if (arg === '--redis') options.redis = value();
    else if (arg === '--workers') options.workers = Number(value());
    else throw new Error(`unknown option ${arg}`);
  }
  for (const key of ['duration', 'connections', 'rounds', 'workers']) {
    if (!Number.isInteger(options[key]) || options[key] < 1) throw new Error(`--${key} must be a positive whole number`);
  }
  return options;
}

async function demoStudentToken(url) {
  const response = await fetch(`${url}${apiRoutes.auth.login.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'student@mooz.local', password: process.env.DEMO_PASSWORD ?? 'mooz-demo-123' }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`login: ${response.status} ${body.message}`);
  return body.data.access;
}

/** What Chromium sends, and so the web app's every request. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

function load(url, { duration, connections }, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, duration, connections, headers }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const figures = (result, cpuSeconds) => ({
  rps: result.requests.average,
  cpuPerRequestUs: cpuSeconds === null || !result.requests.total ? NaN : (cpuSeconds / result.requests.total) * 1e6,
  p50: result.latency.p50,
  p99: result.latency.p99,
  errors: result.errors + result.timeouts + result.non2xx,
});

async function main() {
  const options = parseArgs(process.argv.slice(2));
  console.log(`API benchmark: ${options.connections} connections, ${options.duration} s per target, ${options.rounds} round(s), alternating`);
  console.log(`machine: ${machine()}\n`);

  const database = options.postgres ? await freshDatabase(options.postgres, `mooz_bench_${process.pid}`) : null;
  const hello = await startScript('hello.mjs');
  const servers = [{ name: 'PGlite', server: await startServer() }];
  if (database) servers.push({ name: 'PostgreSQL', server: await startServer({ databaseUrl: database.url }) });
  if (database && options.redis && options.workers > 1) {
    const env = { WORKERS: String(options.workers) };
    const server = await startServer({ databaseUrl: database.url, redisUrl: options.redis, env });
    servers.push({ name: `PostgreSQL, ${options.workers} processes`, server });
  }

  const browser = { 'accept-encoding': BROWSER_ACCEPT_ENCODING };
  const targets = [{ name: 'bare Fastify hello', url: `${hello.url}/`, headers: browser, pid: hello.pid }];
  const endpoints = (server) => [
    [`GET ${apiRoutes.courses.catalogue.path}`, `${server.url}${apiRoutes.courses.catalogue.path}`],
    [`GET ${apiRoutes.sessions.list.path}`, `${server.url}${apiRoutes.sessions.list.path}`],
  ];
  for (const { name, server } of servers) {
    const authorization = `Bearer ${await demoStudentToken(server.url)}`;
    for (const [endpoint, url] of endpoints(server)) {
      targets.push({ name: `${endpoint} (${name})`, endpoint, url, headers: { ...browser, authorization }, pid: server.pid, database: name });
    }
    if (name !== 'PostgreSQL') continue;
    for (const [endpoint, url] of endpoints(server)) {
      const database = `${name}, no Accept-Encoding`;
      targets.push({ name: `${endpoint} (${database})`, endpoint, url, headers: { authorization }, pid: server.pid, database, reference: true });
    }
  }

  const results = new Map(targets.map((target) => [target.name, []]));
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (const target of targets) {
        // A short warm-up, so the JIT and the pools are not what is measured.
        await load(target.url, { duration: 1, connections: options.connections }, target.headers);
        const before = serverCpuSeconds(target.pid);
        const result = await load(target.url, options, target.headers);
        const after = serverCpuSeconds(target.pid);
        results.get(target.name).push(figures(result, before === null || after === null ? null : after - before));
      }
    }
  } finally {
    await hello.stop();
    for (const { server } of servers) await server.stop();
    await database?.drop();
  }

  const mean = (list, key) => list.reduce((sum, item) => sum + item[key], 0) / list.length;
  const floor = mean(results.get(targets[0].name), 'rps');
  const rows = targets.map((target) => {
    const list = results.get(target.name);
    return {
      what: target.name,
      'req/s': Math.round(mean(list, 'rps')),
      'p50 ms': mean(list, 'p50').toFixed(1),
      'p99 ms': mean(list, 'p99').toFixed(1),
      errors: list.reduce((sum, item) => sum + item.errors, 0),
      'CPU µs/req': Math.round(mean(list, 'cpuPerRequestUs')),
      'x hello': (mean(list, 'rps') / floor).toFixed(2),
    };
  });
  console.table(rows);

  const summary = targets.slice(1).map((target) => {
    const list = results.get(target.name);
    const rps = mean(list, 'rps');
    const p99 = mean(list, 'p99');
    const errors = list.reduce((sum, item) => sum + item.errors, 0);
    const ratio = rps / floor;
    const onPostgres = target.database.startsWith('PostgreSQL');
    const cpu = mean(list, 'cpuPerRequestUs');
    return {
      figure: `${target.endpoint} on ${target.database}, req/s (p99 ${p99.toFixed(0)} ms, ${errors} errors${Number.isFinite(cpu) ? `, server CPU ${Math.round(cpu)} µs/request` : ''}; ${options.connections} connections)`,
      value: Math.round(rps),
      unit: 'req/s',
      baseline: Math.round(floor),
      baselineName: 'bare Fastify hello',
      ratio: Number(ratio.toFixed(2)),
      goal: target.reference ? 'for comparison: a client that takes no compression' : onPostgres ? '≥ 0.5 × baseline, p99 < 20 ms, no errors' : '≥ 0.25 × baseline, no errors',
      met: target.reference ? null : onPostgres ? ratio >= 0.5 && p99 < 20 && errors === 0 : ratio >= 0.25 && errors === 0,
    };
  });
  console.log(`BENCH-SUMMARY ${JSON.stringify({ bench: 'api', rows: summary })}`);
}

await main();
