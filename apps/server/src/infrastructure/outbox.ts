// The transactional outbox: work written as rows in the transaction that caused it, done after the
// answer has gone. A pass claims due rows (FOR UPDATE SKIP LOCKED, so several processes share them
// without doing one twice), runs each kind's handler, and marks it done; a failure waits and retries
// with a growing delay. A pass starts right after new work is written and every few seconds anyway,
// which picks up rows a crashed process left behind.
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { outboxJobs } from '../db/schema/index';

export type JobKind = (typeof outboxJobs.$inferInsert)['kind'];
type Executor = Pick<Database, 'insert'>;

const BATCH = 20;
const CLAIM_MS = 60_000;
const POLL_MS = 5_000;
const MAX_ATTEMPTS = 8;
/** 2 s, 4 s, 8 s … at most 10 minutes between tries. */
const retryDelayMs = (attempts: number) => Math.min(2 ** attempts * 1000, 600_000);

export interface Outbox {
  /** Writes a job with `executor`: the transaction of the change that needs it. Call `kick()` after it commits. */
  add(executor: Executor, kind: JobKind, payload: unknown, options?: { notBefore?: Date }): Promise<void>;
  /** Starts a pass soon. */
  kick(): void;
  /** Names the handler of one kind of job; jobs of a kind nobody handles wait. */
  handle<P>(kind: JobKind, handler: (payload: P) => Promise<void>): void;
  /** Resolves once no pass is running or due to start (tests, shutdown). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export function createOutbox(options: {
  db: Database;
  log: FastifyBaseLogger;
  now?: () => Date;
}): Outbox {
  const { db, log } = options;
  const handlers = new Map<JobKind, (payload: never) => Promise<void>>();
  const now = options.now ?? (() => new Date());
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  async function claim() {
    if (!handlers.size) return [];
    const t = now();
    const due = db
      .select({ id: outboxJobs.id })
      .from(outboxJobs)
      .where(
        and(
          inArray(outboxJobs.kind, [...handlers.keys()]),
          isNull(outboxJobs.doneAt),
          lte(outboxJobs.availableAt, t),
          or(isNull(outboxJobs.claimedUntil), lte(outboxJobs.claimedUntil, t)),
        ),
      )
      .orderBy(asc(outboxJobs.id))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    return db
      .update(outboxJobs)
      .set({ claimedUntil: new Date(t.getTime() + CLAIM_MS), attempts: sql`${outboxJobs.attempts} + 1` })
      .where(inArray(outboxJobs.id, due))
      .returning();
  }

  async function runOne(job: typeof outboxJobs.$inferSelect) {
    const handler = handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`no handler for ${job.kind} jobs`);
      await handler(job.payload as never);
      await db.update(outboxJobs).set({ doneAt: now(), claimedUntil: null }).where(eq(outboxJobs.id, job.id));
    } catch (error) {
      const giveUp = job.attempts >= MAX_ATTEMPTS;
      log[giveUp ? 'error' : 'warn']({ err: error, job: job.id, kind: job.kind, attempts: job.attempts }, giveUp ? 'outbox job failed for good' : 'outbox job failed; will retry');
      await db
        .update(outboxJobs)
        .set({
          lastError: String((error as Error)?.message ?? error).slice(0, 1000),
          claimedUntil: null,
          availableAt: new Date(now().getTime() + retryDelayMs(job.attempts)),
          ...(giveUp && { doneAt: now() }),
        })
        .where(eq(outboxJobs.id, job.id));
    }
  }

  async function pass() {
    do {
      again = false;
      const jobs = await claim();
      for (const job of jobs) await runOne(job);
      if (jobs.length === BATCH) again = true;
    } while (again && !stopped);
  }

  function kick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(pass)
      .catch((error: unknown) => log.warn({ err: error }, 'outbox pass failed; the next one retries'))
      .finally(() => {
        running = null;
        if (again) kick();
      });
  }

  const timer = setInterval(kick, POLL_MS);
  timer.unref();

  return {
    async add(executor, kind, payload, options) {
      await executor.insert(outboxJobs).values({ kind, payload, availableAt: options?.notBefore ?? now() });
    },
    kick,
    handle(kind, handler) {
      handlers.set(kind, handler as (payload: never) => Promise<void>);
      kick();
    },
    async idle() {
      while (running) await running;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (running) await running;
    },
  };
}
