// Teachers run their sessions: change a session's title or time while it has not ended, cancel it with a
// reason (who attended: attendance-live.ts). A move or a cancellation tells each of the session's
// students once (bell, and mail unless they turned the kind off: modules/notifications), in the
// transaction that made the change: the notices exist exactly when the change does. A cancelled session leaves every list (service.ts) and its room
// takes no joins (realtime/admission.ts).
import { subject } from '@casl/ability';
import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { Session } from '@mooz/contract/courses';
import { messages } from '@mooz/contract/messages';
import type { cancelSessionBody, sessionPatch } from '@mooz/contract/teaching';
import type { Database } from '../../db/client';
import { classSessions, courses, users } from '../../db/schema/index';
import type { AuthUser } from '../../http/authenticate';
import { conflict, forbidden, invalidField, notFound } from '../../http/errors';
import type { Outbox } from '../../infrastructure/outbox';
import { auditIfAdmin } from '../admin';
import { present, sessionStatus } from './service';
import { payingStudents } from '../courses';
import type { Notice, NotificationsDoor } from '../notifications';
import { sessionParams } from './session-mails';

type Caller = Pick<AuthUser, 'id' | 'userType' | 'ability'>;
type Executor = Pick<Database, 'select' | 'insert' | 'update'>;
type SessionRow = typeof classSessions.$inferSelect;

interface SessionChangesDeps {
  db: Database;
  outbox: Outbox;
  now?: () => Date;
  /** Each student's bell, and their mail unless they turned this kind off (modules/notifications). */
  notifications: Pick<NotificationsDoor, 'tell'>;
}

export function createSessionChanges(deps: SessionChangesDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  /** The session with its course, when the caller runs it: 404 unknown, 403 someone else's. */
  async function managed(caller: Caller, id: number) {
    const [row] = await db
      .select({
        session: classSessions,
        course: { id: courses.id, name: courses.name, teacherId: courses.teacherId, timeZone: courses.timeZone },
        teacher: { firstName: users.firstName, lastName: users.lastName },
      })
      .from(classSessions)
      .innerJoin(courses, eq(courses.id, classSessions.courseId))
      .innerJoin(users, eq(users.id, courses.teacherId))
      .where(eq(classSessions.id, id));
    if (!row) throw notFound(messages.sessionNotFound);
    if (!caller.ability.can('update', subject('Session', { teacher_id: row.course.teacherId } as Record<string, unknown>))) throw forbidden();
    return row;
  }

  async function tellEach(executor: Executor, session: Pick<SessionRow, 'courseId' | 'batchId'>, notice: Pick<Notice, 'kind' | 'params' | 'link'>) {
    const students = await payingStudents(executor, session);
    await deps.notifications.tell(executor, students.map((to) => ({ ...notice, userId: to.id })));
  }

  /** Still to come or under way, and not cancelled: what may still change. */
  function open(session: SessionRow, at: Date) {
    if (session.cancelledAt) throw conflict(messages.sessionAlreadyCancelled);
    if (sessionStatus(session, at) === 'ended') throw conflict(messages.sessionAlreadyEnded);
  }

  return {
    async update(caller: Caller, id: number, patch: z.output<typeof sessionPatch>): Promise<{ data: Session; message: string }> {
      const row = await managed(caller, id);
      const at = now();
      const before = row.session;
      open(before, at);
      const startsAt = patch.starts_at === undefined ? before.startsAt : new Date(patch.starts_at);
      const minutes = patch.duration_minutes ?? Math.round((before.endsAt.getTime() - before.startsAt.getTime()) / 60_000);
      const endsAt = new Date(startsAt.getTime() + minutes * 60_000);
      if (startsAt.getTime() !== before.startsAt.getTime() && startsAt <= at) throw invalidField('starts_at', 'Choose a time in the future');
      if (endsAt <= at) throw invalidField('duration_minutes', 'The session would end in the past');
      const moved = startsAt.getTime() !== before.startsAt.getTime() || endsAt.getTime() !== before.endsAt.getTime();
      const title = patch.title ?? before.title;
      const updated = await db.transaction(async (tx) => {
        const [changed] = await tx
          .update(classSessions)
          .set({ title, startsAt, endsAt })
          // Re-checked on the row: a cancellation that got there first wins.
          .where(and(eq(classSessions.id, id), isNull(classSessions.cancelledAt)))
          .returning();
        if (!changed) throw conflict(messages.sessionAlreadyCancelled);
        await auditIfAdmin(tx, caller, 'session.update', { type: 'session', id }, { title, starts_at: startsAt.toISOString() });
        if (moved) {
          const facts = { title, courseName: row.course.name, timeZone: row.course.timeZone };
          await tellEach(tx, changed, {
            kind: 'class_moved',
            params: sessionParams(
              { ...facts, startsAt, endsAt },
              { previous_starts_at: before.startsAt.toISOString(), previous_minutes: Math.round((before.endsAt.getTime() - before.startsAt.getTime()) / 60_000) },
            ),
            link: '/sessions',
          });
        }
        return changed;
      });
      if (moved) deps.outbox.kick();
      return { data: present(updated, row.course.name, row.teacher, true, at), message: messages.sessionUpdated };
    },

    async cancel(caller: Caller, id: number, body: z.output<typeof cancelSessionBody>) {
      const row = await managed(caller, id);
      const at = now();
      open(row.session, at);
      const cancelled = await db.transaction(async (tx) => {
        // One conditional UPDATE: of two cancellations at once, exactly one changes the row and mails.
        const [changed] = await tx
          .update(classSessions)
          .set({ cancelledAt: at, cancelReason: body.reason })
          .where(and(eq(classSessions.id, id), isNull(classSessions.cancelledAt)))
          .returning();
        if (!changed) throw conflict(messages.sessionAlreadyCancelled);
        await auditIfAdmin(tx, caller, 'session.cancel', { type: 'session', id }, { reason: body.reason });
        await tellEach(tx, changed, {
          kind: 'class_cancelled',
          params: sessionParams({ ...changed, courseName: row.course.name, timeZone: row.course.timeZone }, { reason: body.reason }),
          link: '/sessions',
        });
        return changed;
      });
      deps.outbox.kick();
      return {
        data: { id: cancelled.id, cancelled_at: cancelled.cancelledAt!.toISOString(), cancel_reason: cancelled.cancelReason! },
        message: messages.sessionCancelled,
      };
    },
  };
}

export type SessionChanges = ReturnType<typeof createSessionChanges>;
