#!/usr/bin/env -S npx tsx
// API benchmark: what an outside client gets from the catalogue and the sessions list, against a bare
// Fastify "hello" (bench/hello.mjs) measured in the same run, alternating, so a busy machine slows
// both. Each target gets --connections connections for --duration seconds (autocannon); it prints
// requests per second, p50/p99 latency, errors, and the ratio to the hello. It never fails on time.
//
//   npx tsx bench/api.mjs                                  # ours on PGlite (the embedded default)
//   npx tsx bench/api.mjs --postgres postgres://postgres@127.0.0.1:5432/postgres   # and on PostgreSQL
//   npx tsx bench/api.mjs --duration 5 --connections 50 --rounds 1
//   npx tsx bench/api.mjs --postgres postgres://... --redis redis://127.0.0.1:6379   # and WORKERS processes
//
// With --postgres (or BENCH_DATABASE_URL) it makes a fresh database on that server and drops it after.
// With --redis (or BENCH_REDIS_URL) as well, it also measures the server run as --workers processes
// (WORKERS, node:cluster; one per core by default) on that database, sharing that Redis.
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import { apiRoutes } from '../packages/contract/src/api-routes.ts';
import { freshDatabase, machine, startScript, startServer } from './support/server.mjs';

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

function load(url, { duration, connections }, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, duration, connections, headers }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const figures = (result) => ({
  rps: result.requests.average,
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

  const targets = [{ name: 'bare Fastify hello', url: `${hello.url}/`, headers: {} }];
  for (const { name, server } of servers) {
    const headers = { authorization: `Bearer ${await demoStudentToken(server.url)}` };
    targets.push({ name: `GET /api/courses/ (${name})`, url: `${server.url}${apiRoutes.courses.catalogue.path}`, headers });
    targets.push({ name: `GET /api/classes/sessions/ (${name})`, url: `${server.url}${apiRoutes.sessions.list.path}`, headers });
  }

  const results = new Map(targets.map((target) => [target.name, []]));
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (const target of targets) {
        // A short warm-up, so the JIT and the pools are not what is measured.
        await load(target.url, { duration: 1, connections: options.connections }, target.headers);
        results.get(target.name).push(figures(await load(target.url, options, target.headers)));
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
      'x hello': (mean(list, 'rps') / floor).toFixed(2),
    };
  });
  console.table(rows);
}

await main();
