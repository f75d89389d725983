// The outbox against a real database: work written with a change is done after it commits, retried
// after a failure, shared by several processes without being done twice, and picked up after a crash.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { outboxJobs } from '../db/schema/index';
import { createTestDatabase } from '../../test/database';
import type { DatabaseHandle } from '../db/client';
import { createOutbox, type Outbox } from './outbox';

let database: DatabaseHandle;
const outboxes: Outbox[] = [];
const log = pino({ level: 'silent' });

beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(outboxes.splice(0).map((o) => o.stop()));
  await database.close();
});

function outboxAt(clock: { now: Date }) {
  const outbox = createOutbox({ db: database.db, log, now: () => clock.now });
  outboxes.push(outbox);
  return outbox;
}

/** One pass, run to its end. */
async function pass(outbox: Outbox) {
  outbox.kick();
  await outbox.idle();
}

describe('the outbox', () => {
  it('does nothing of a transaction that rolled back, and the work of one that committed', async () => {
    const outbox = outboxAt({ now: new Date() });
    const done: string[] = [];
    outbox.handle<{ to: string }>('mail', async ({ to }) => void done.push(to));
    await database.db
      .transaction(async (tx) => {
        await outbox.add(tx, 'mail', { to: 'rolled-back@example.test' });
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    await database.db.transaction((tx) => outbox.add(tx, 'mail', { to: 'committed@example.test' }));
    outbox.kick();
    await outbox.idle();
    expect(done).toEqual(['committed@example.test']);
  });

  it('retries a failed job later, with the error kept, until it succeeds', async () => {
    const clock = { now: new Date('2026-01-01T00:00:00Z') };
    const outbox = outboxAt(clock);
    let failures = 1;
    const done: number[] = [];
    outbox.handle<{ n: number }>('mail', async ({ n }) => {
      if (failures-- > 0) throw new Error('SMTP server down');
      done.push(n);
    });
    await outbox.add(database.db, 'mail', { n: 1 });
    outbox.kick();
    await outbox.idle();
    expect(done).toEqual([]);
    const [failed] = await database.db.select().from(outboxJobs);
    expect(failed).toMatchObject({ attempts: 1, lastError: 'SMTP server down', doneAt: null });

    // Not before its delay.
    await pass(outbox);
    expect(done).toEqual([]);
    clock.now = new Date(clock.now.getTime() + 60_000);
    await pass(outbox);
    expect(done).toEqual([1]);
  });

  it('does each job once when two processes work the same table', async () => {
    const clock = { now: new Date() };
    const [a, b] = [outboxAt(clock), outboxAt(clock)];
    const done: number[] = [];
    for (const outbox of [a, b]) outbox.handle<{ n: number }>('mail', async ({ n }) => void done.push(n));
    for (let n = 0; n < 50; n++) await a.add(database.db, 'mail', { n });
    a.kick();
    b.kick();
    await Promise.all([a.idle(), b.idle()]);
    expect(done.sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, n) => n));
  });

  it('picks up a job a crashed process had claimed, once its claim runs out', async () => {
    const clock = { now: new Date() };
    // What a process that died mid-job leaves: a claimed row, not done.
    await database.db.insert(outboxJobs).values({ kind: 'mail', payload: { n: 7 }, attempts: 1, claimedUntil: new Date(clock.now.getTime() + 60_000) });
    const outbox = outboxAt(clock);
    const done: number[] = [];
    outbox.handle<{ n: number }>('mail', async ({ n }) => void done.push(n));
    await outbox.idle();
    expect(done).toEqual([]);
    clock.now = new Date(clock.now.getTime() + 61_000);
    await pass(outbox);
    expect(done).toEqual([7]);
  });
});
