// The attendance of a class session: recorded by the meeting server as people come and go
// (a leave-and-return is two visits, a blip within the grace is none), served live to the session's
// teacher and admins by session and by room, after the end, and as a CSV file; refused to everyone else.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { messages } from '@mooz/contract/messages';
import { attendance, classSessions, subscriptions, users } from '../../db/schema/index';
import { ask, classSession, connect, meetingServer, next, person } from '../../../test/realtime-clients';
import { attendanceCsvName } from './attendance-live';

// A grace long enough for a reconnect within it, short enough for a test.
const graceMs = 400;
const server = meetingServer(graceMs);
const MIN = 60_000;

type Person = Awaited<ReturnType<typeof person>>;
const bearer = (who: Person) => ({ authorization: `Bearer ${who.token}` });
const get = (url: string, who?: Person) => server.t.app.inject({ method: 'GET', url, headers: who ? bearer(who) : {} });

async function named(who: Person, firstName: string, lastName: string) {
  await server.t.db.update(users).set({ firstName, lastName }).where(eq(users.id, who.userId));
  const [row] = await server.t.db.select({ email: users.email }).from(users).where(eq(users.id, who.userId));
  return row!.email;
}

/** `who` has bought the course of `sessionId` (a session without a batch concerns all of them). */
async function enrol(sessionId: number, who: Person) {
  const [session] = await server.t.db.select().from(classSessions).where(eq(classSessions.id, sessionId));
  await server.t.db.insert(subscriptions).values({
    id: randomUUID(),
    userId: who.userId,
    courseId: session!.courseId,
    batch: 'weekdays',
    startDate: '2030-01-01',
    endDate: '2030-12-31',
    status: 'active',
    amount: 1000,
    currency: 'INR',
    orderId: `order_${randomUUID()}`,
  });
}

const visitsOf = (sessionId: number, userId: number) =>
  server.t.db.select().from(attendance).where(and(eq(attendance.sessionId, sessionId), eq(attendance.userId, userId))).orderBy(attendance.joinedAt);

describe('live attendance', () => {
  it('records a leave-and-return as two visits, a blip within the grace as none, and shows them live', async () => {
    const teacher = await person(server.t, 'teacher');
    const ana = await person(server.t);
    const bo = await person(server.t);
    const absentee = await person(server.t);
    const { roomId, sessionId } = await classSession(server.t, teacher.userId, 10, { startsAt: new Date(Date.now() - 5 * MIN) });
    const anaEmail = await named(ana, 'Ana', 'Alves');
    await named(bo, 'Bo', 'Berg');
    const absentEmail = await named(absentee, 'Cy', 'Absent');
    for (const who of [ana, bo, absentee]) await enrol(sessionId, who);

    const ts = await connect(server.url, teacher.auth('teacher-peer'));
    await ask(ts, 'request:join_room', { roomId, userName: 'Teacher' });
    // Ana comes, leaves, and comes back: two visits.
    const first = await connect(server.url, ana.auth('ana-peer'));
    await ask(first, 'request:join_room', { roomId, userName: 'Ana' });
    await ask(first, 'request:leave_room', { roomId });
    await ask(first, 'request:join_room', { roomId, userName: 'Ana' });
    // Bo drops and reconnects with the same peer id within the grace: the same visit goes on, and the
    // others are not told of a leave.
    const bs = await connect(server.url, bo.auth('bo-peer'));
    await ask(bs, 'request:join_room', { roomId, userName: 'Bo' });
    const terminated: string[] = [];
    ts.on('action:terminate_peer_connection', ({ userId }) => terminated.push(userId));
    bs.disconnect();
    const back = await connect(server.url, bo.auth('bo-peer', roomId));
    expect(await ask(back, 'request:join_room', { roomId, userName: 'Bo' })).toMatchObject({ room: { id: roomId } });
    await new Promise((resolve) => setTimeout(resolve, graceMs * 2));
    expect(terminated).toEqual([]);

    expect((await visitsOf(sessionId, ana.userId)).map((v) => v.leftAt === null)).toEqual([false, true]);
    expect(await visitsOf(sessionId, bo.userId)).toHaveLength(1);
    expect((await visitsOf(sessionId, bo.userId))[0]!.leftAt).toBeNull();

    const res = await get(`/api/classes/sessions/${sessionId}/attendance/`, teacher);
    expect(res.statusCode).toBe(200);
    const report = res.json().data;
    expect(report).toMatchObject({ session_id: sessionId, live: true, absent: [{ user_id: absentee.userId, name: 'Cy Absent', email: absentEmail }] });
    // The teacher's own presence is not attendance.
    expect(report.attended.map((a: { name: string }) => a.name)).toEqual(['Ana Alves', 'Bo Berg']);
    const anaRow = report.attended[0];
    expect(anaRow).toMatchObject({ user_id: ana.userId, email: anaEmail, here: true, last_left_at: null });
    expect(anaRow.visits).toHaveLength(2);
    expect(anaRow.visits[0].left_at).toEqual(expect.any(String));
    expect(anaRow.visits[1].left_at).toBeNull();
    expect(anaRow.first_joined_at).toBe(anaRow.visits[0].joined_at);
    expect(report.attended[1]).toMatchObject({ here: true, visits: [{ left_at: null }] });

    // The meeting's People tab reads the same report by its room.
    const byRoom = await get(`/api/classes/rooms/${roomId}/attendance/`, teacher);
    expect(byRoom.statusCode).toBe(200);
    expect(byRoom.json().data).toEqual(report);

    // Ana leaves for good: no longer here, her last leave shown.
    const left = next(ts, 'action:terminate_peer_connection');
    await ask(first, 'request:leave_room', { roomId });
    await left;
    const after = (await get(`/api/classes/rooms/${roomId}/attendance/`, teacher)).json().data;
    expect(after.attended[0]).toMatchObject({ here: false, last_left_at: expect.any(String) });
    expect(after.attended[0].visits.every((v: { left_at: string | null }) => v.left_at !== null)).toBe(true);
  });

  it('closes the visit of someone who drops for longer than the grace, and opens a new one when they return', async () => {
    const teacher = await person(server.t, 'teacher');
    const ana = await person(server.t);
    const { roomId, sessionId } = await classSession(server.t, teacher.userId);
    const ts = await connect(server.url, teacher.auth());
    await ask(ts, 'request:join_room', { roomId, userName: 'Teacher' });
    const first = await connect(server.url, ana.auth('ana-long'));
    await ask(first, 'request:join_room', { roomId, userName: 'Ana' });
    const terminated = next<{ userId: string }>(ts, 'action:terminate_peer_connection');
    first.disconnect();
    expect(await terminated).toEqual({ userId: 'ana-long' });
    const introduced = next<{ userId: string }>(ts, 'action:establish_peer_connection');
    const back = await connect(server.url, ana.auth('ana-long', roomId));
    await ask(back, 'request:join_room', { roomId, userName: 'Ana' });
    expect(await introduced).toMatchObject({ userId: 'ana-long' });
    await expect.poll(async () => (await visitsOf(sessionId, ana.userId)).map((v) => v.leftAt === null)).toEqual([false, true]);
  });
});

describe('the attendance report and its CSV', () => {
  /** An ended session with visits written straight into the table, minutes from its start. */
  async function endedSession() {
    const teacher = await person(server.t, 'teacher');
    const startsAt = new Date(Date.now() - 120 * MIN);
    const { roomId, sessionId } = await classSession(server.t, teacher.userId, 10, { startsAt, endsAt: new Date(startsAt.getTime() + 60 * MIN) });
    await server.t.db.update(classSessions).set({ title: 'Intro to Clay' }).where(eq(classSessions.id, sessionId));
    const at = (min: number) => new Date(startsAt.getTime() + min * MIN);
    return { teacher, roomId, sessionId, at, startsAt };
  }

  it('after the end: each stint, minutes within the session (overlaps once), nobody here, the absent', async () => {
    const { teacher, sessionId, at } = await endedSession();
    const came = await person(server.t);
    const absent = await person(server.t);
    await named(came, 'Came', 'Person');
    await named(absent, 'Absent', 'Person');
    for (const who of [came, absent]) await enrol(sessionId, who);
    await server.t.db.insert(attendance).values([
      // Early to test the camera, then a second tab overlapping the first: 0–40 counts once.
      { sessionId, userId: came.userId, joinedAt: at(-10), leftAt: at(30) },
      { sessionId, userId: came.userId, joinedAt: at(20), leftAt: at(40) },
      { sessionId, userId: teacher.userId, joinedAt: at(0), leftAt: at(60) },
    ]);
    const res = await get(`/api/classes/sessions/${sessionId}/attendance/`, teacher);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({
      session_id: sessionId,
      live: false,
      attended: [
        {
          user_id: came.userId,
          name: 'Came Person',
          first_joined_at: at(-10).toISOString(),
          last_left_at: at(40).toISOString(),
          minutes_present: 40,
          here: false,
          visits: [
            { joined_at: at(-10).toISOString(), left_at: at(30).toISOString() },
            { joined_at: at(20).toISOString(), left_at: at(40).toISOString() },
          ],
        },
      ],
      absent: [{ user_id: absent.userId, name: 'Absent Person' }],
    });
  });

  it('a visit never closed (the server died) is not "here" once the session ended, and counts to its end', async () => {
    const { teacher, sessionId, at } = await endedSession();
    const stayed = await person(server.t);
    await server.t.db.insert(attendance).values({ sessionId, userId: stayed.userId, joinedAt: at(50), leftAt: null });
    const [row] = (await get(`/api/classes/sessions/${sessionId}/attendance/`, teacher)).json().data.attended;
    expect(row).toMatchObject({ here: false, last_left_at: null, minutes_present: 10 });
  });

  it('downloads as CSV: a row per stint, the absent after, RFC 4180 quoting, formulas kept as text', async () => {
    const { teacher, sessionId, at, startsAt } = await endedSession();
    const quoted = await person(server.t);
    const formula = await person(server.t);
    const absent = await person(server.t);
    const quotedEmail = await named(quoted, 'Ann "Nan"', 'Lee, Jr.');
    const formulaEmail = await named(formula, '=HYPERLINK("http://x")', 'Evil');
    const absentEmail = await named(absent, 'Zed', 'Nobody');
    for (const who of [quoted, formula, absent]) await enrol(sessionId, who);
    await server.t.db.insert(attendance).values([
      { sessionId, userId: quoted.userId, joinedAt: at(0), leftAt: at(10) },
      { sessionId, userId: quoted.userId, joinedAt: at(30), leftAt: at(45) },
      { sessionId, userId: formula.userId, joinedAt: at(5), leftAt: null },
    ]);
    const res = await get(`/api/classes/sessions/${sessionId}/attendance/export/`, teacher);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain(`attendance-intro-to-clay-${startsAt.toISOString().slice(0, 10)}.csv`);
    expect(res.headers['cache-control']).toBe('no-store');
    const utc = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
    expect(res.body).toBe(
      '\uFEFF' +
        [
          'Name,Email,Joined (UTC),Left (UTC),Minutes present,Status',
          `"'=HYPERLINK(""http://x"") Evil",${formulaEmail},${utc(at(5))},,55,present`,
          `"Ann ""Nan"" Lee, Jr.",${quotedEmail},${utc(at(0))},${utc(at(10))},10,present`,
          `"Ann ""Nan"" Lee, Jr.",${quotedEmail},${utc(at(30))},${utc(at(45))},15,present`,
          `Zed Nobody,${absentEmail},,,0,absent`,
        ].join('\r\n') +
        '\r\n',
    );
  });

  it('names the file after the session, in ASCII', () => {
    expect(attendanceCsvName('Été: Ça va?', new Date('2030-05-06T10:00:00Z'))).toBe('attendance-ete-ca-va-2030-05-06.csv');
    expect(attendanceCsvName('日本語', new Date('2030-05-06T10:00:00Z'))).toBe('attendance-session-2030-05-06.csv');
  });

  it('is refused to students (403), other teachers (403), and without a token (401); unknown sessions and rooms are 404', async () => {
    const { teacher, sessionId, roomId } = await endedSession();
    const student = await person(server.t);
    await enrol(sessionId, student);
    const otherTeacher = await person(server.t, 'teacher');
    for (const url of [`/api/classes/sessions/${sessionId}/attendance/`, `/api/classes/sessions/${sessionId}/attendance/export/`, `/api/classes/rooms/${roomId}/attendance/`]) {
      expect((await get(url, student)).statusCode, url).toBe(403);
      expect((await get(url, otherTeacher)).statusCode, url).toBe(403);
      expect((await get(url)).statusCode, url).toBe(401);
      expect((await get(url, teacher)).statusCode, url).toBe(200);
    }
    expect((await get('/api/classes/sessions/999999/attendance/', teacher)).statusCode).toBe(404);
    expect((await get('/api/classes/sessions/999999/attendance/export/', teacher)).statusCode).toBe(404);
    // An ad hoc room is no session's room.
    const res = await get(`/api/classes/rooms/${randomUUID()}/attendance/`, teacher);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(messages.sessionNotFound);
    expect((await get('/api/classes/sessions/abc/attendance/', teacher)).statusCode).toBe(400);
    expect((await get('/api/classes/sessions/-1/attendance/export/', teacher)).statusCode).toBe(400);
    // A room id with a line break is no room id; one too long for the router is no route.
    expect((await get('/api/classes/rooms/a%0Ab/attendance/', teacher)).statusCode).toBe(400);
    expect((await get(`/api/classes/rooms/${'x'.repeat(500)}/attendance/`, teacher)).statusCode).toBe(404);
  });

  it('is served to an admin, and refused for a cancelled session (409)', async () => {
    const { sessionId } = await endedSession();
    const admin = await person(server.t, 'admin');
    expect((await get(`/api/classes/sessions/${sessionId}/attendance/`, admin)).json().data).toEqual({ session_id: sessionId, live: false, attended: [], absent: [] });
    const teacher = await person(server.t, 'teacher');
    const { sessionId: cancelled, roomId } = await classSession(server.t, teacher.userId);
    await server.t.db.update(classSessions).set({ cancelledAt: new Date(), cancelReason: 'Ill' }).where(eq(classSessions.id, cancelled));
    const res = await get(`/api/classes/sessions/${cancelled}/attendance/`, teacher);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(messages.sessionAlreadyCancelled);
    expect((await get(`/api/classes/rooms/${roomId}/attendance/`, teacher)).statusCode).toBe(409);
  });

  it('before the start (the room opens early) someone in the room is here, with no minutes yet', async () => {
    const teacher = await person(server.t, 'teacher');
    const ana = await person(server.t);
    const startsAt = new Date(Date.now() + 5 * MIN);
    const { sessionId } = await classSession(server.t, teacher.userId, 10, { startsAt, endsAt: new Date(startsAt.getTime() + 60 * MIN) });
    await server.t.db.insert(attendance).values({ sessionId, userId: ana.userId, joinedAt: new Date(Date.now() - MIN), leftAt: null });
    const { data } = (await get(`/api/classes/sessions/${sessionId}/attendance/`, teacher)).json();
    expect(data.live).toBe(false);
    expect(data.attended[0]).toMatchObject({ here: true, minutes_present: 0 });
    const csv = (await get(`/api/classes/sessions/${sessionId}/attendance/export/`, teacher)).body;
    expect(csv.split('\r\n')[1]).toMatch(/,0,present$/);
  });

  it('while the session runs, counts minutes up to now', async () => {
    const teacher = await person(server.t, 'teacher');
    const ana = await person(server.t);
    const startsAt = new Date(Date.now() - 30 * MIN);
    const { sessionId } = await classSession(server.t, teacher.userId, 10, { startsAt });
    await server.t.db.insert(attendance).values({ sessionId, userId: ana.userId, joinedAt: new Date(startsAt.getTime() + 10 * MIN), leftAt: null });
    const { data } = (await get(`/api/classes/sessions/${sessionId}/attendance/`, teacher)).json();
    expect(data.live).toBe(true);
    expect(data.attended[0]).toMatchObject({ here: true, minutes_present: 20 });
  });
});
