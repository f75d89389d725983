// Reactions, private messages and polls against real socket.io clients on a listening server: who may
// do what, who hears what (and who does not), a late joiner's poll, and two processes on one Redis.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { PollView } from '@mooz/contract/classroom-tools';
import { messages } from '@mooz/contract/messages';
import type { RoomControls } from '@mooz/contract/realtime';
import type { TestApp } from '../../../test/app';
import { pollAnswers, polls } from '../../db/schema/index';
import { ask, classOfThree, connect, meetingServer, next, person, quiet, record, type Client, twoProcesses } from '../../../test/realtime-clients';

const server = meetingServer();

const classroom = (t: TestApp = server.t, urls: [string, string] = [server.url, server.url]) => classOfThree(t, urls);

function where<T>(socket: Client, event: 'action:poll' | 'action:room_controls', check: (payload: T) => boolean, ms = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no matching ${event}`)), ms);
    const listener = (payload: T) => {
      if (!check(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener as never);
      resolve(payload);
    };
    socket.on(event, listener as never);
  });
}
const pollWhere = (socket: Client, check: (poll: PollView) => boolean) => where<{ poll: PollView }>(socket, 'action:poll', ({ poll }) => check(poll)).then((e) => e.poll);

describe('reactions', () => {
  it('float to everyone else in the room, within the rate limit, and only the set ones', async () => {
    const { roomId, t, a, b } = await classroom();
    const toTeacher = next(t, 'action:reaction');
    const toB = next(b.socket, 'action:reaction');
    const toSelf = record(a.socket, 'action:reaction');
    expect(await ask(a.socket, 'request:reaction', { roomId, reaction: '👏' })).toEqual({ done: true });
    expect(await toTeacher).toEqual({ roomId, from: a.peer, reaction: '👏' });
    expect(await toB).toEqual({ roomId, from: a.peer, reaction: '👏' });
    await quiet(a.socket);
    expect(toSelf).toEqual([]);

    for (const bad of [{ roomId, reaction: '💩' }, { roomId }, { reaction: '👍' }, null]) {
      expect(await ask(a.socket, 'request:reaction', bad)).toEqual({ error: messages.validationFailed });
    }
    expect(await ask(a.socket, 'request:reaction', { roomId: 'elsewhere', reaction: '👍' })).toEqual({ error: messages.notAllowed });
    // A burst of three (one used above), then one a second.
    expect(await ask(a.socket, 'request:reaction', { roomId, reaction: '👍' })).toEqual({ done: true });
    expect(await ask(a.socket, 'request:reaction', { roomId, reaction: '👍' })).toEqual({ done: true });
    expect(await ask(a.socket, 'request:reaction', { roomId, reaction: '👍' })).toEqual({ error: messages.rateLimited });
  });
});

describe('private messages', () => {
  it('reach the one person they are for and nobody else', async () => {
    const { roomId, t, a, b, c } = await classroom();
    const elsewhere = [t, a.socket, c.socket].map((socket) => record(socket, 'action:private_message'));
    const roomChats = [t, b.socket, c.socket].map((socket) => record(socket, 'action:room_chat'));
    const toB = next(b.socket, 'action:private_message');
    expect(await ask(a.socket, 'request:private_message', { roomId, to: b.peer, chat: { id: 'm1', text: ' Psst ' } })).toEqual({ delivered: true });
    expect(await toB).toEqual({ roomId, from: a.peer, fromName: 'Ana', chat: { id: 'm1', text: 'Psst' } });
    await Promise.all([t, a.socket, c.socket].map(quiet));
    expect(elsewhere.flat()).toEqual([]);
    expect(roomChats.flat()).toEqual([]);
  });

  it('refuses oneself, someone not in the room, an outsider and bad payloads', async () => {
    const { roomId, a, b } = await classroom();
    expect(await ask(a.socket, 'request:private_message', { roomId, to: a.peer, chat: { id: 'm', text: 'me' } })).toEqual({ error: messages.notAllowed });
    expect(await ask(a.socket, 'request:private_message', { roomId, to: 'nobody', chat: { id: 'm', text: 'hi' } })).toEqual({ error: messages.notAllowed });
    const outsider = await connect(server.url, (await person(server.t)).auth());
    expect(await ask(outsider, 'request:private_message', { roomId, to: b.peer, chat: { id: 'm', text: 'hi' } })).toEqual({ error: messages.notAllowed });
    for (const chat of [{ id: 'm', text: '   ' }, { id: '', text: 'hi' }, { id: 'm', text: 'x'.repeat(5000) }, null]) {
      expect(await ask(a.socket, 'request:private_message', { roomId, to: b.peer, chat })).toEqual({ error: messages.validationFailed });
    }
  });

  it('between students can be turned off by the host, never to or from a host', async () => {
    const { roomId, t, tSession, a, b } = await classroom();
    expect(await ask(a.socket, 'request:moderate', { roomId, action: 'lock_private_chat' })).toEqual({ error: messages.notAllowed });
    const locked = where<RoomControls>(b.socket, 'action:room_controls', (c) => c.privateChatLocked);
    expect(await ask(t, 'request:moderate', { roomId, action: 'lock_private_chat' })).toEqual({ done: true });
    await locked;
    expect(await ask(a.socket, 'request:private_message', { roomId, to: b.peer, chat: { id: 'm', text: 'hi' } })).toEqual({ error: messages.privateChatLocked });
    expect(await ask(a.socket, 'request:private_message', { roomId, to: tSession, chat: { id: 'm', text: 'A question' } })).toEqual({ delivered: true });
    expect(await ask(t, 'request:private_message', { roomId, to: b.peer, chat: { id: 'm', text: 'An answer' } })).toEqual({ delivered: true });
    // A late joiner learns of the lock.
    const late = await connect(server.url, (await person(server.t)).auth());
    const told = next<RoomControls>(late, 'action:room_controls');
    await ask(late, 'request:join_room', { roomId, userName: 'Late' });
    expect((await told).privateChatLocked).toBe(true);
    const unlocked = where<RoomControls>(a.socket, 'action:room_controls', (c) => !c.privateChatLocked);
    expect(await ask(t, 'request:moderate', { roomId, action: 'unlock_private_chat' })).toEqual({ done: true });
    await unlocked;
    expect(await ask(a.socket, 'request:private_message', { roomId, to: b.peer, chat: { id: 'm', text: 'hi' } })).toEqual({ delivered: true });
  });
});

const choice = { question: 'What is 2 + 2?', kind: 'single', options: ['3', '4', '5'] };

describe('polls', () => {
  it('are opened by a host only, with a checked form', async () => {
    const { roomId, t, a } = await classroom();
    expect(await ask(a.socket, 'request:poll_open', { roomId, poll: choice })).toEqual({ error: messages.notAllowed });
    for (const poll of [
      { ...choice, options: ['only one'] },
      { ...choice, options: ['1', '2', '3', '4', '5', '6', '7'] },
      { ...choice, kind: 'text' },
      { question: 'Why?', kind: 'text', graded: true },
      { ...choice, graded: true },
      { ...choice, graded: true, correct: [0, 1] },
      { ...choice, graded: true, correct: [5] },
      { ...choice, question: '  ' },
      { ...choice, seconds: 3 },
    ]) {
      expect(await ask(t, 'request:poll_open', { roomId, poll })).toEqual({ error: messages.validationFailed });
    }
    expect(await server.t.db.select().from(polls).where(eq(polls.roomId, roomId))).toEqual([]);
  });

  it('take one answer per person, show the hosts the answers at once and the others when shown', async () => {
    const { roomId, sessionId, t, a, b, c } = await classroom();
    const seenByA = pollWhere(a.socket, (p) => !p.closed);
    const opened = await ask<{ poll: PollView }>(t, 'request:poll_open', { roomId, poll: { ...choice, anonymous: false, graded: true, correct: [1] } });
    const id = opened.poll.id;
    expect(opened.poll).toMatchObject({ question: 'What is 2 + 2?', closed: false, results: { answered: 0, counts: [0, 0, 0] } });
    // A student sees the question, not the right answer nor any results.
    expect(await seenByA).toMatchObject({ id, options: ['3', '4', '5'], correct: null, results: null, mine: null });

    const hostSees = pollWhere(t, (p) => p.results?.answered === 2);
    expect(await ask(a.socket, 'request:poll_answer', { roomId, pollId: id, choices: [1] })).toEqual({ done: true });
    expect(await ask(b.socket, 'request:poll_answer', { roomId, pollId: id, choices: [2] })).toEqual({ done: true });
    expect((await hostSees).results).toEqual({
      answered: 2,
      counts: [0, 1, 1],
      answers: [
        { name: 'Ana', choices: [1], text: '' },
        { name: 'Ben', choices: [2], text: '' },
      ],
    });
    expect(await ask(a.socket, 'request:poll_answer', { roomId, pollId: id, choices: [0] })).toEqual({ error: messages.pollAnsweredAlready });
    for (const bad of [{ choices: [0, 1] }, { choices: [4] }, { choices: [] }, { text: 'four' }]) {
      expect(await ask(c.socket, 'request:poll_answer', { roomId, pollId: id, ...bad })).toEqual({ error: messages.pollAnswerInvalid });
    }
    expect(await ask(c.socket, 'request:poll_answer', { roomId, pollId: 999999, choices: [1] })).toEqual({ error: messages.pollNotFound });
    expect(await ask(c.socket, 'request:poll_answer', { roomId, pollId: id, choices: [7] })).toEqual({ error: messages.validationFailed });
    expect(await ask(c.socket, 'request:poll_reveal', { roomId, pollId: id, shown: true })).toEqual({ error: messages.notAllowed });
    expect(await ask(c.socket, 'request:poll_close', { roomId, pollId: id })).toEqual({ error: messages.notAllowed });

    // Closed: no more answers; shown: everyone sees the counts and the right answer.
    const closedForC = pollWhere(c.socket, (p) => p.closed);
    expect(await ask(t, 'request:poll_close', { roomId, pollId: id })).toEqual({ done: true });
    expect((await closedForC).results).toBeNull();
    expect(await ask(c.socket, 'request:poll_answer', { roomId, pollId: id, choices: [1] })).toEqual({ error: messages.pollClosed });
    const shownToC = pollWhere(c.socket, (p) => p.resultsShown);
    expect(await ask(t, 'request:poll_reveal', { roomId, pollId: id, shown: true })).toEqual({ done: true });
    expect(await shownToC).toMatchObject({ correct: [1], results: { answered: 2, counts: [0, 1, 1] } });

    // Each answer is stored, with the session.
    const stored = await server.t.db.select().from(pollAnswers).where(eq(pollAnswers.pollId, id));
    expect(stored.map((row) => [row.userId, row.choices])).toEqual(
      expect.arrayContaining([
        [a.account.userId, [1]],
        [b.account.userId, [2]],
      ]),
    );
    expect((await server.t.db.select().from(polls).where(eq(polls.id, id)))[0]!.sessionId).toBe(sessionId);
  });

  it("give a late joiner the room's poll with their own answer, and keep anonymous answers nameless", async () => {
    const { roomId, t, a } = await classroom();
    const { poll } = await ask<{ poll: PollView }>(t, 'request:poll_open', { roomId, poll: { question: 'One word for today?', kind: 'text' } });
    expect(await ask(a.socket, 'request:poll_answer', { roomId, pollId: poll.id, text: 'Fun' })).toEqual({ done: true });
    // Ana reloads: a new connection, a new peer id.
    a.socket.disconnect();
    const back = await connect(server.url, a.account.auth());
    await ask(back, 'request:join_room', { roomId, userName: 'Ana' });
    const state = await ask<{ poll: PollView }>(back, 'request:poll_state', { roomId });
    expect(state.poll).toMatchObject({ id: poll.id, kind: 'text', mine: { choices: [], text: 'Fun' }, results: null });
    const hosts = await ask<{ poll: PollView }>(t, 'request:poll_state', { roomId });
    expect(hosts.poll.results).toEqual({ answered: 1, counts: [], answers: [{ name: null, choices: [], text: 'Fun' }] });
    const outsider = await connect(server.url, (await person(server.t)).auth());
    expect(await ask(outsider, 'request:poll_state', { roomId })).toEqual({ error: messages.notAllowed });
  });

  it('refuse answers once a timed poll is past its time, and a new poll closes the one before', async () => {
    const { roomId, t, a } = await classroom();
    const timed = await ask<{ poll: PollView }>(t, 'request:poll_open', { roomId, poll: { ...choice, seconds: 30 } });
    expect(Date.parse(timed.poll.closesAt!) - Date.parse(timed.poll.openedAt)).toBe(30_000);
    await server.t.db.update(polls).set({ closesAt: new Date(Date.now() - 1000) }).where(eq(polls.id, timed.poll.id));
    expect(await ask(a.socket, 'request:poll_answer', { roomId, pollId: timed.poll.id, choices: [1] })).toEqual({ error: messages.pollClosed });

    const first = await ask<{ poll: PollView }>(t, 'request:poll_open', { roomId, poll: choice });
    await ask<{ poll: PollView }>(t, 'request:poll_open', { roomId, poll: { ...choice, question: 'Next' } });
    expect(await ask(a.socket, 'request:poll_answer', { roomId, pollId: first.poll.id, choices: [1] })).toEqual({ error: messages.pollClosed });
  });
});

describe('poll answers as CSV', () => {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it("lists every answer for the host, nameless for an anonymous poll, and is nobody else's", async () => {
    const { roomId, t, teacher, a, b } = await classroom();
    const named = await ask<{ poll: PollView }>(t, 'request:poll_open', { roomId, poll: { ...choice, anonymous: false, graded: true, correct: [1] } });
    await ask(a.socket, 'request:poll_answer', { roomId, pollId: named.poll.id, choices: [1] });
    await ask(b.socket, 'request:poll_answer', { roomId, pollId: named.poll.id, choices: [0] });
    const anonymous = await ask<{ poll: PollView }>(t, 'request:poll_open', { roomId, poll: { question: 'Say, anything', kind: 'text' } });
    await ask(a.socket, 'request:poll_answer', { roomId, pollId: anonymous.poll.id, text: '=1+1, "quoted"' });

    const url = `/api/classes/rooms/${roomId}/polls/export/`;
    const res = await server.t.app.inject({ method: 'GET', url, headers: bearer(teacher.token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="poll-answers-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Poll,Question,Kind,Name,Email,Answer,Correct,Answered (UTC)');
    expect(lines[1]).toMatch(/^1,What is 2 \+ 2\?,single,Ana,[^,]+@[^,]+,4,yes,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(lines[2]).toMatch(/^1,What is 2 \+ 2\?,single,Ben,[^,]+@[^,]+,3,no,/);
    // Anonymous: no name or email; a formula stays text and quotes are doubled.
    expect(lines[3]).toMatch(/^2,"Say, anything",text,,,"'=1\+1, ""quoted""",,\d{4}/);

    const otherTeacher = await person(server.t, 'teacher');
    for (const token of [a.account.token, otherTeacher.token]) {
      const refused = await server.t.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ message: messages.pollNotFound });
    }
    const admin = await person(server.t, 'admin');
    expect((await server.t.app.inject({ method: 'GET', url, headers: bearer(admin.token) })).statusCode).toBe(200);
    expect((await server.t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });
});

describe.runIf(process.env.REDIS_URL)('two server processes sharing Redis', () => {
  it('deliver private messages, reactions and polls across processes', async () => {
    const processes = await twoProcesses(server.t);
    try {
      const [one, two] = processes.urls;
      const shared = processes.shared;
      // The teacher and Ben on the first process, Ana and Cai on the second.
      const { roomId, t, a, b, c } = await classroom(shared, [one!, two!]);
      const toB = next(b.socket, 'action:private_message');
      const notC = record(c.socket, 'action:private_message');
      expect(await ask(a.socket, 'request:private_message', { roomId, to: b.peer, chat: { id: 'x', text: 'Across' } })).toEqual({ delivered: true });
      expect(await toB).toMatchObject({ from: a.peer, chat: { text: 'Across' } });
      const reaction = next(t, 'action:reaction');
      await ask(c.socket, 'request:reaction', { roomId, reaction: '❤️' });
      expect(await reaction).toMatchObject({ from: c.peer, reaction: '❤️' });

      const seenByA = pollWhere(a.socket, (p) => !p.closed);
      const { poll } = await ask<{ poll: PollView }>(t, 'request:poll_open', { roomId, poll: choice });
      await seenByA;
      const counted = pollWhere(t, (p) => p.results?.answered === 1);
      expect(await ask(a.socket, 'request:poll_answer', { roomId, pollId: poll.id, choices: [1] })).toEqual({ done: true });
      expect((await counted).results?.counts).toEqual([0, 1, 0]);
      await quiet(c.socket);
      expect(notC).toEqual([]);
    } finally {
      await processes.close();
    }
  });
});
