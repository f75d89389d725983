// The whiteboard against real socket.io clients on a listening server and a real database: who may
// draw is the teacher's say and the server's to enforce, every stroke is stored so a late joiner (or a
// restarted server) gets the whole board, pages follow the teacher, and bad input changes nothing.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as Y from 'yjs';
import { messages } from '@mooz/contract/messages';
import type { WhiteboardState } from '@mooz/contract/whiteboard';
import { whiteboardUpdates } from '../../db/schema/index';
import { ask, classSession, connect, meetingServer, next, person, quiet, record } from '../../../test/realtime-clients';

const server = meetingServer();

/** A class session with its teacher and two students in the room. */
async function classroom() {
  const teacher = await person(server.t, 'teacher');
  const { roomId } = await classSession(server.t, teacher.userId);
  const t = await connect(server.url, teacher.auth('teacher-' + randomUUID()));
  await ask(t, 'request:join_room', { roomId, userName: 'Tess' });
  const alice = await person(server.t);
  const bob = await person(server.t);
  const aSession = 'alice-' + randomUUID();
  const a = await connect(server.url, alice.auth(aSession));
  const b = await connect(server.url, bob.auth('bob-' + randomUUID()));
  await ask(a, 'request:join_room', { roomId, userName: 'Alice' });
  await ask(b, 'request:join_room', { roomId, userName: 'Bob' });
  return { roomId, teacher, t, alice, a, aSession, bob, b };
}

/** A stroke as the web client keeps it: an element in the page's `elements` map. */
function stroke(doc: Y.Doc, id: string, text = 'x'): Uint8Array {
  const before = Y.encodeStateVector(doc);
  doc.getMap('elements').set(id, { id, type: 'freedraw', version: 1, text });
  return Y.encodeStateAsUpdate(doc, before);
}

function elementsOf(update: Uint8Array | ArrayBuffer): string[] {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, update instanceof Uint8Array ? update : new Uint8Array(update));
  return [...doc.getMap('elements').keys()].sort();
}

async function storedRows(roomId: string) {
  return server.t.db.select().from(whiteboardUpdates).where(eq(whiteboardUpdates.roomId, roomId));
}

describe('who may draw', () => {
  it('passes the teacher\'s strokes to everyone else at once, and stores them', async () => {
    const { roomId, t, a, b } = await classroom();
    const shown = next<WhiteboardState>(a, 'action:whiteboard_state');
    expect(await ask(t, 'request:whiteboard_show', { roomId, shown: true })).toEqual({ shown: true });
    expect(await shown).toMatchObject({ roomId, shown: true, pages: 1, page: 0, access: 'nobody' });

    const seenByA = next<{ page: number; from: string; update: ArrayBuffer }>(a, 'action:whiteboard_update');
    const seenByB = next<{ update: ArrayBuffer }>(b, 'action:whiteboard_update');
    const teacherEcho = record(t, 'action:whiteboard_update');
    expect(await ask(t, 'request:whiteboard_update', { roomId, page: 0, update: stroke(new Y.Doc(), 'line-1') })).toEqual({ done: true });
    expect(elementsOf((await seenByA).update)).toEqual(['line-1']);
    expect(elementsOf((await seenByB).update)).toEqual(['line-1']);
    await quiet(t);
    expect(teacherEcho).toEqual([]);
    expect(await storedRows(roomId)).toHaveLength(1);
  });

  it('refuses a student\'s update while drawing is locked, and nobody gets it', async () => {
    const { roomId, t, a, b } = await classroom();
    await ask(t, 'request:whiteboard_show', { roomId, shown: true });
    const seenByB = record(b, 'action:whiteboard_update');
    const forged = await ask(a, 'request:whiteboard_update', { roomId, page: 0, update: stroke(new Y.Doc(), 'forged') });
    expect(forged).toEqual({ error: messages.notAllowed });
    await quiet(b);
    expect(seenByB).toEqual([]);
    expect(await storedRows(roomId)).toHaveLength(0);
  });

  it('lets everyone draw when the teacher says so, and only named students when named', async () => {
    const { roomId, t, a, aSession, b } = await classroom();
    await ask(t, 'request:whiteboard_show', { roomId, shown: true });
    expect(await ask(t, 'request:whiteboard_access', { roomId, access: 'everyone' })).toEqual({ done: true });
    expect(await ask(b, 'request:whiteboard_update', { roomId, page: 0, update: stroke(new Y.Doc(), 'bob-1') })).toEqual({ done: true });

    const told = next<WhiteboardState>(b, 'action:whiteboard_state');
    expect(await ask(t, 'request:whiteboard_access', { roomId, access: 'named', writers: [aSession] })).toEqual({ done: true });
    expect(await told).toMatchObject({ access: 'named', writers: [aSession] });
    expect(await ask(a, 'request:whiteboard_update', { roomId, page: 0, update: stroke(new Y.Doc(), 'alice-1') })).toEqual({ done: true });
    expect(await ask(b, 'request:whiteboard_update', { roomId, page: 0, update: stroke(new Y.Doc(), 'bob-2') })).toEqual({ error: messages.notAllowed });

    expect(await ask(t, 'request:whiteboard_access', { roomId, access: 'nobody' })).toEqual({ done: true });
    expect(await ask(a, 'request:whiteboard_update', { roomId, page: 0, update: stroke(new Y.Doc(), 'alice-2') })).toEqual({ error: messages.notAllowed });
    const sync = await ask<{ update: ArrayBuffer }>(t, 'request:whiteboard_sync', { roomId, page: 0 });
    expect(elementsOf(sync.update)).toEqual(['alice-1', 'bob-1']);
  });

  it('keeps a named student allowed when they come back with a new peer id', async () => {
    const { roomId, t, alice, aSession, a } = await classroom();
    await ask(t, 'request:whiteboard_show', { roomId, shown: true });
    await ask(t, 'request:whiteboard_access', { roomId, access: 'named', writers: [aSession] });
    a.disconnect();
    const again = 'alice-again-' + randomUUID();
    const a2 = await connect(server.url, alice.auth(again));
    await ask(a2, 'request:join_room', { roomId, userName: 'Alice' });
    const teacherTold = next<WhiteboardState>(t, 'action:whiteboard_state');
    const now = await ask<WhiteboardState>(a2, 'request:whiteboard_state', { roomId });
    expect(now.writers).toContain(again);
    expect((await teacherTold).writers).toContain(again);
    expect(await ask(a2, 'request:whiteboard_update', { roomId, page: 0, update: stroke(new Y.Doc(), 'alice-back') })).toEqual({ done: true });
  });

  it('refuses the teacher\'s controls to a student and to someone not in the room', async () => {
    const { roomId, t, a } = await classroom();
    expect(await ask(a, 'request:whiteboard_show', { roomId, shown: true })).toEqual({ error: messages.notAllowed });
    expect(await ask(a, 'request:whiteboard_access', { roomId, access: 'everyone' })).toEqual({ error: messages.notAllowed });
    expect(await ask(a, 'request:whiteboard_page', { roomId, action: 'add' })).toEqual({ error: messages.notAllowed });
    const outsider = await person(server.t, 'teacher');
    const o = await connect(server.url, outsider.auth());
    expect(await ask(o, 'request:whiteboard_state', { roomId })).toEqual({ error: messages.notAllowed });
    expect(await ask(o, 'request:whiteboard_sync', { roomId, page: 0 })).toEqual({ error: messages.notAllowed });
    expect(await ask(o, 'request:whiteboard_update', { roomId, page: 0, update: stroke(new Y.Doc(), 'o') })).toEqual({ error: messages.notAllowed });
    const board = await ask<WhiteboardState>(t, 'request:whiteboard_state', { roomId });
    expect(board).toMatchObject({ shown: false, pages: 1, access: 'nobody' });
  });

  it('does not show a hidden board to students', async () => {
    const { roomId, t, a } = await classroom();
    await ask(t, 'request:whiteboard_update', { roomId, page: 0, update: stroke(new Y.Doc(), 'prepared') });
    expect(await ask(a, 'request:whiteboard_sync', { roomId, page: 0 })).toEqual({ error: messages.notAllowed });
  });
});

describe('late joiners and reconnects', () => {
  it('gives a late joiner the whole page and the page the class is on', async () => {
    const { roomId, t } = await classroom();
    await ask(t, 'request:whiteboard_show', { roomId, shown: true });
    const doc = new Y.Doc();
    for (let i = 0; i < 5; i += 1) await ask(t, 'request:whiteboard_update', { roomId, page: 0, update: stroke(doc, `s${i}`) });
    await ask(t, 'request:whiteboard_page', { roomId, action: 'add' });
    await ask(t, 'request:whiteboard_update', { roomId, page: 1, update: stroke(new Y.Doc(), 'p2') });

    const late = await person(server.t);
    const l = await connect(server.url, late.auth());
    await ask(l, 'request:join_room', { roomId, userName: 'Late' });
    expect(await ask<WhiteboardState>(l, 'request:whiteboard_state', { roomId })).toMatchObject({ shown: true, pages: 2, page: 1 });
    expect(elementsOf((await ask<{ update: ArrayBuffer }>(l, 'request:whiteboard_sync', { roomId, page: 1 })).update)).toEqual(['p2']);
    expect(elementsOf((await ask<{ update: ArrayBuffer }>(l, 'request:whiteboard_sync', { roomId, page: 0 })).update)).toEqual(['s0', 's1', 's2', 's3', 's4']);
  });

  it('keeps the board in the database, merged, across a restart of the server', async () => {
    const { roomId, t } = await classroom();
    const doc = new Y.Doc();
    for (let i = 0; i < 3; i += 1) await ask(t, 'request:whiteboard_update', { roomId, page: 0, update: stroke(doc, `k${i}`) });
    // A fresh service over the same database (as another process, or this one restarted) reads it back.
    const { boardStore } = await import('./board-store');
    const other = boardStore(server.t.db);
    expect(elementsOf(await other.document(roomId, 0))).toEqual(['k0', 'k1', 'k2']);
  });
});

describe('pages', () => {
  it('moves the class to a new page and back, and refuses a page that does not exist', async () => {
    const { roomId, t, a } = await classroom();
    const shown = next<WhiteboardState>(a, 'action:whiteboard_state');
    await ask(t, 'request:whiteboard_show', { roomId, shown: true });
    await shown;
    const toNew = next<WhiteboardState>(a, 'action:whiteboard_state');
    expect(await ask(t, 'request:whiteboard_page', { roomId, action: 'add' })).toEqual({ page: 1 });
    expect(await toNew).toMatchObject({ pages: 2, page: 1 });
    const back = next<WhiteboardState>(a, 'action:whiteboard_state');
    expect(await ask(t, 'request:whiteboard_page', { roomId, action: 'go', page: 0 })).toEqual({ page: 0 });
    expect(await back).toMatchObject({ pages: 2, page: 0 });
    expect(await ask(t, 'request:whiteboard_page', { roomId, action: 'go', page: 5 })).toEqual({ error: messages.validationFailed });
    expect(await ask(t, 'request:whiteboard_update', { roomId, page: 7, update: stroke(new Y.Doc(), 'nowhere') })).toEqual({ error: messages.notAllowed });
  });

  it('lets a student draw only on the page the class is on', async () => {
    const { roomId, t, a } = await classroom();
    await ask(t, 'request:whiteboard_show', { roomId, shown: true });
    await ask(t, 'request:whiteboard_access', { roomId, access: 'everyone' });
    await ask(t, 'request:whiteboard_page', { roomId, action: 'add' });
    expect(await ask(a, 'request:whiteboard_update', { roomId, page: 0, update: stroke(new Y.Doc(), 'old') })).toEqual({ error: messages.notAllowed });
    expect(await ask(a, 'request:whiteboard_update', { roomId, page: 1, update: stroke(new Y.Doc(), 'new') })).toEqual({ done: true });
  });
});

describe('bad input', () => {
  it('refuses what is not a Yjs update, or too large, and stores nothing', async () => {
    const { roomId, t } = await classroom();
    const refused = { error: messages.validationFailed };
    const bad: unknown[] = [
      { roomId, page: 0, update: 'not bytes' },
      { roomId, page: 0, update: new Uint8Array([1, 2, 3]) },
      { roomId, page: 0, update: new Uint8Array(0) },
      { roomId, page: 0, update: new Uint8Array(60 * 1024) },
      { roomId, page: -1, update: stroke(new Y.Doc(), 'a') },
      { roomId, page: 'one', update: stroke(new Y.Doc(), 'a') },
      { page: 0, update: stroke(new Y.Doc(), 'a') },
      null,
    ];
    for (const payload of bad) expect(await ask(t, 'request:whiteboard_update', payload)).toEqual(refused);
    expect(await ask(t, 'request:whiteboard_access', { roomId, access: 'some' })).toEqual(refused);
    expect(await ask(t, 'request:whiteboard_show', { roomId, shown: 'yes' })).toEqual(refused);
    expect(await ask(t, 'request:whiteboard_page', { roomId, action: 'remove' })).toEqual(refused);
    // Naming someone who is not in the room.
    expect(await ask(t, 'request:whiteboard_access', { roomId, access: 'named', writers: ['nobody-here'] })).toEqual({ error: messages.notAllowed });
    expect(await storedRows(roomId)).toHaveLength(0);
    expect(await ask<WhiteboardState>(t, 'request:whiteboard_state', { roomId })).toMatchObject({ access: 'nobody', shown: false });
  });
});

