// WORKERS > 1: this process (node:cluster's primary) migrates and seeds the database once, then runs
// that many server processes sharing the port, each the whole app (main.ts), and replaces one that
// dies. What they must agree on goes through PostgreSQL and Redis (config.ts requires both): meeting
// rooms (socket.io's Redis adapter; the signalling server takes websockets only, so no sticky
// sessions), rate limits, and the changes that drop cached reads (infrastructure/change-bus.ts).
// SIGTERM or SIGINT stops the workers gracefully (each finishes its requests), then the primary.
import cluster, { type Worker } from 'node:cluster';
import { resolveJwtSecret, type Config } from './config';
import { openDatabase } from './db/client';
import { seedDemo } from './seed';
import { openLegacyBatches } from './modules/batches/legacy';

/** A worker that dies this soon after starting, twice in a row, stops everything: it would only loop. */
const CRASH_LOOP_MS = 10_000;

export async function runPrimary(config: Config): Promise<void> {
  const database = await openDatabase(config);
  try {
    await openLegacyBatches(database.db);
    if (config.seedDemo) {
      const result = await seedDemo(database.db, { password: config.demoPassword, trialDays: config.trialDays });
      if (result.seeded) console.log('demo data seeded (see README for the demo accounts)');
    }
  } finally {
    await database.close();
  }

  // Without JWT_SECRET each process would otherwise make its own: one is made here, for all.
  resolveJwtSecret(config);

  let stopping = false;
  let quickDeaths = 0;
  const startedAt = new Map<Worker, number>();
  const fork = () => startedAt.set(cluster.fork(), Date.now());

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) {
      if (startedAt.size === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    quickDeaths = lived < CRASH_LOOP_MS ? quickDeaths + 1 : 0;
    console.error(`server process ${worker.process.pid} exited (${signal ?? code})${quickDeaths >= 2 ? ': stopping' : ': starting another'}`);
    if (quickDeaths >= 2) {
      stopping = true;
      for (const other of startedAt.keys()) other.kill('SIGTERM');
      if (startedAt.size === 0) process.exit(1);
      process.exitCode = 1;
      return;
    }
    fork();
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      stopping = true;
      if (startedAt.size === 0) process.exit(0);
      for (const worker of startedAt.keys()) worker.kill('SIGTERM');
      // Each worker gives itself 10 s (main.ts); past a little more, whatever is left goes.
      setTimeout(() => process.exit(1), 12_000).unref();
    });
  }

  for (let i = 0; i < config.workers; i++) fork();
}
