// Where polls live: in the database, so every server process sees the same poll, a late joiner or a
// reconnect finds it, and each account's one answer is kept (the primary key refuses a second).
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type { PollResults, PollSettings } from '@mooz/contract/classroom-tools';
import type { Database } from '../../db/client';
import { pollAnswers, polls } from '../../db/schema/index';

export type Poll = typeof polls.$inferSelect;
export type PollAnswer = Pick<typeof pollAnswers.$inferSelect, 'choices' | 'text'>;

/** Closed by the host, or past its time. */
export const pollClosed = (poll: Poll, now = new Date()) => poll.closedAt !== null || (poll.closesAt !== null && poll.closesAt <= now);

export function pollStore(db: Database) {
  return {
    /** Opens a poll in the room, closing any still open there. */
    async open(roomId: string, sessionId: number | null, openedBy: number, form: PollSettings): Promise<Poll> {
      return db.transaction(async (tx) => {
        const now = new Date();
        await tx.update(polls).set({ closedAt: now }).where(and(eq(polls.roomId, roomId), isNull(polls.closedAt)));
        const [row] = await tx
          .insert(polls)
          .values({
            roomId,
            sessionId,
            openedBy,
            question: form.question,
            kind: form.kind,
            options: form.options,
            anonymous: form.anonymous,
            graded: form.graded,
            // Sorted, as answers are: a right answer is the same array (the dashboard compares them).
            correct: form.graded ? [...new Set(form.correct)].sort((x, y) => x - y) : [],
            openedAt: now,
            closesAt: form.seconds ? new Date(now.getTime() + form.seconds * 1000) : null,
          })
          .returning();
        return row!;
      });
    },

    async find(pollId: number): Promise<Poll | null> {
      const [row] = await db.select().from(polls).where(eq(polls.id, pollId));
      return row ?? null;
    },

    /** The room's newest poll. */
    async latest(roomId: string): Promise<Poll | null> {
      const [row] = await db.select().from(polls).where(eq(polls.roomId, roomId)).orderBy(desc(polls.id)).limit(1);
      return row ?? null;
    },

    /** False when this account had answered already. */
    async answer(pollId: number, userId: number, userName: string, answer: PollAnswer): Promise<boolean> {
      const rows = await db
        .insert(pollAnswers)
        .values({ pollId, userId, userName, choices: answer.choices, text: answer.text })
        .onConflictDoNothing()
        .returning({ pollId: pollAnswers.pollId });
      return rows.length === 1;
    },

    async mine(pollId: number, userId: number): Promise<PollAnswer | null> {
      const [row] = await db
        .select({ choices: pollAnswers.choices, text: pollAnswers.text })
        .from(pollAnswers)
        .where(and(eq(pollAnswers.pollId, pollId), eq(pollAnswers.userId, userId)));
      return row ?? null;
    },

    /** Closes it now (a closed poll stays as it was); the poll as it stands. */
    async close(pollId: number): Promise<Poll | null> {
      await db.update(polls).set({ closedAt: new Date() }).where(and(eq(polls.id, pollId), isNull(polls.closedAt)));
      return this.find(pollId);
    },

    async reveal(pollId: number, shown: boolean): Promise<Poll | null> {
      const [row] = await db.update(polls).set({ resultsShown: shown }).where(eq(polls.id, pollId)).returning();
      return row ?? null;
    },

    /** Every answer, first first, with who gave it. */
    async answers(pollId: number) {
      return db
        .select({ userId: pollAnswers.userId, userName: pollAnswers.userName, choices: pollAnswers.choices, text: pollAnswers.text, answeredAt: pollAnswers.answeredAt })
        .from(pollAnswers)
        .where(eq(pollAnswers.pollId, pollId))
        .orderBy(asc(pollAnswers.answeredAt), asc(pollAnswers.userId));
    },

    async results(poll: Poll): Promise<PollResults> {
      const rows = await this.answers(poll.id);
      const counts = poll.options.map(() => 0);
      for (const row of rows) for (const choice of row.choices) if (choice < counts.length) counts[choice]! += 1;
      // Choices of an anonymous poll show only as counts; its free-text answers without names.
      const answers =
        poll.kind === 'text' || !poll.anonymous
          ? rows.map((row) => ({ name: poll.anonymous ? null : row.userName, choices: row.choices, text: row.text }))
          : [];
      return { answered: rows.length, counts, answers };
    },
  };
}
