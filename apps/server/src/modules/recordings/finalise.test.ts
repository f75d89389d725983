// Making a recording ready tells its course's students once: the notice is written in the transaction
// that makes the row ready, so a finalise run twice (at once, or again later as a live recording made
// again is) tells nobody a second time, and one whose notice fails leaves the row unfinished and
// nobody told, for the next try to do both.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app';
import { outbox } from '../../../test/accounts';
import { paidEnrollment } from '../../../test/admin';
import { readyRecording, webmFixture } from '../../../test/recordings';
import { sessionAt } from '../../../test/sessions';
import { notifications, recordings } from '../../db/schema/index';
import { finaliseRecording } from './finalise';

describe('finalising a recording', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  /** A course's live recording waiting to be made ('processing'), its one source object stored. */
  async function unfinished() {
    const { teacher, course, student } = await paidEnrollment(t);
    const session = await sessionAt(t, course.id, 'Glaze chemistry', -60, { batchId: null });
    const row = await readyRecording(t, { recordedBy: teacher.user.id, courseId: course.id, sessionId: session.id, title: 'Glaze chemistry', status: 'processing' });
    const source = `sources/test-${randomUUID()}.webm`;
    await t.app.storage.put(source, Readable.from([webmFixture()]), 'video/webm');
    return { row, source, student, course };
  }

  const toldOf = (userId: number) =>
    t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.kind, 'recording_added')));
  const mailsTo = async (email: string) => (await outbox(t)).filter((m) => m.to === email && m.subject.startsWith('New recording'));

  it('tells the students once when two finalises run at once, and not again when it is made again', async () => {
    const { row, source, student } = await unfinished();
    const results = await Promise.all([1, 2].map(() => finaliseRecording(t.app, row.id, [source], { keepSources: true })));
    expect(results.map((r) => r.outcome).sort()).toEqual(['gone', 'ready']);
    const [ready] = await t.db.select().from(recordings).where(eq(recordings.id, row.id));
    expect(ready!.status).toBe('ready');
    expect(await toldOf(student.user.id)).toHaveLength(1);

    // A live recording made again (claimed back to 'processing' when more chunks came): ready again, nobody told again.
    await t.db.update(recordings).set({ status: 'processing' }).where(eq(recordings.id, row.id));
    expect((await finaliseRecording(t.app, row.id, [source])).outcome).toBe('ready');
    const told = await toldOf(student.user.id);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ link: `/recordings/${row.id}`, params: { title: 'Glaze chemistry' } });
    expect(await mailsTo(student.user.email)).toHaveLength(1);
  });

  it('leaves the recording unfinished and nobody told when the notice cannot be written, and the next try does both', async () => {
    const { row, source, student } = await unfinished();
    const failing = {
      ...t.app.notifications,
      recordingAdded: async () => {
        throw new Error('database went away');
      },
    };
    await expect(finaliseRecording({ db: t.db, log: t.app.log, storage: t.app.storage, notifications: failing }, row.id, [source], { keepSources: true })).rejects.toThrow(
      'database went away',
    );
    const [after] = await t.db.select().from(recordings).where(eq(recordings.id, row.id));
    expect(after).toMatchObject({ status: 'processing', readyAt: null });
    expect(await toldOf(student.user.id)).toEqual([]);

    expect((await finaliseRecording(t.app, row.id, [source])).outcome).toBe('ready');
    expect(await toldOf(student.user.id)).toHaveLength(1);
    expect(await mailsTo(student.user.email)).toHaveLength(1);
  });
});
