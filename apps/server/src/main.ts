// Reads the configuration, builds the app, seeds demo data when asked, listens, and shuts down
// gracefully: stop accepting, finish in-flight requests, close the database. With WORKERS > 1 this
// process runs that many such server processes instead (cluster.ts).
import cluster from 'node:cluster';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { seedDemo } from './seed';
import { openLegacyBatches } from './modules/batches/legacy';
import { runPrimary } from './cluster';
import { DataDirLockedError } from './db/data-dir-lock';
import { startOwnJanus } from './sfu/own-janus';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

// A single server process starts a Janus of its own; several (WORKERS, a production set-up) are given JANUS_URLS.
const ownJanus = cluster.isWorker || config.workers > 1 ? null : await startOwnJanus(config, (line) => console.warn(line));
if (ownJanus) {
  process.env.JANUS_URLS = config.janus.urls.join(',');
  process.env.JANUS_API_SECRET = config.janus.apiSecret;
  process.once('exit', () => ownJanus.kill());
  // Stopped with the server whoever handles the signal (the cluster's primary too).
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => ownJanus.kill());
}

if (config.workers > 1 && cluster.isPrimary) {
  await runPrimary(config);
} else {
  await serve(config);
}

async function serve(config: Config) {
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(config);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (config.payments.usesDevKeys) {
    app.log.warn('RAZORPAY_KEY_ID / RAZORPAY_KEY_SECRET / RAZORPAY_WEBHOOK_SECRET not set: using development-only keys');
  }
  // Workers find the database prepared and seeded by their primary.
  if (!cluster.isWorker) await openLegacyBatches(app.db);
  if (config.seedDemo && !cluster.isWorker) {
    const result = await seedDemo(app.db, { password: config.demoPassword, trialDays: config.trialDays });
    if (result.seeded) app.log.info('demo data seeded (see README for the demo accounts)');
  }

  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, async () => {
      if (closing) return;
      closing = true;
      app.log.info(`${signal} received: shutting down`);
      const timer = setTimeout(() => {
        app.log.error('shutdown took over 10 s: exiting');
        process.exit(1);
      }, 10_000);
      timer.unref();
      await app.close();
      await ownJanus?.stop();
      process.exit(0);
    });
  }

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Mooz is ready at http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`);
}
