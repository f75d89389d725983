// A cancelled session's room takes no joins, for anyone, with a message that says why; the same room
// admits its people while the session stands.
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@mooz/contract/messages';
import { attendance } from '../db/schema/index';
import { ask, classSession, connect, meetingServer, person } from '../../test/realtime-clients';

const server = meetingServer();

describe('a cancelled session room', () => {
  it('refuses its teacher, a student allowed to see it and an admin, and records no attendance', async () => {
    const teacher = await person(server.t, 'teacher');
    const student = await person(server.t, 'student');
    const admin = await person(server.t, 'admin');
    const { roomId, sessionId } = await classSession(server.t, teacher.userId);
    const res = await server.t.app.inject({
      method: 'POST',
      url: `/api/classes/sessions/${sessionId}/cancel/`,
      headers: { authorization: `Bearer ${teacher.token}` },
      payload: { reason: 'Snow day' },
    });
    expect(res.statusCode).toBe(200);
    for (const who of [teacher, student, admin]) {
      const socket = await connect(server.url, who.auth());
      expect(await ask(socket, 'request:join_room', { roomId, userName: 'Someone' })).toEqual({ error: messages.sessionWasCancelled });
    }
    expect(await server.t.db.select().from(attendance).where(eq(attendance.sessionId, sessionId))).toEqual([]);
  });
});
