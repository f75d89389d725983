// A room's poll answers as a CSV file for whoever opened the polls (a class's teacher, an ad hoc room's
// host) and admins: one row per answer. Anonymous polls keep their answers nameless here too.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { messages } from '@mooz/contract/messages';
import type { Database } from '../../db/client';
import { pollAnswers, polls, users } from '../../db/schema/index';
import type { AuthUser } from '../../http/authenticate';
import { notFound } from '../../http/errors';
import { attachment, toCsv } from '../../infrastructure/csv';

const header = ['Poll', 'Question', 'Kind', 'Name', 'Email', 'Answer', 'Correct', 'Answered (UTC)'];
const utc = (at: Date) => at.toISOString().slice(0, 19).replace('T', ' ');

export function createPollAnswers(db: Database) {
  return {
    async csv(user: AuthUser, roomId: string, reply: FastifyReply): Promise<FastifyReply> {
      const mine = user.userType === 'admin' ? eq(polls.roomId, roomId) : and(eq(polls.roomId, roomId), eq(polls.openedBy, user.id));
      const rows = await db.select().from(polls).where(mine).orderBy(asc(polls.id));
      // A room without polls of one's own is as good as unknown.
      if (!rows.length) throw notFound(messages.pollNotFound);
      const answers = await db
        .select({ pollId: pollAnswers.pollId, name: pollAnswers.userName, email: users.email, choices: pollAnswers.choices, text: pollAnswers.text, at: pollAnswers.answeredAt })
        .from(pollAnswers)
        .innerJoin(users, eq(users.id, pollAnswers.userId))
        .where(inArray(pollAnswers.pollId, rows.map((poll) => poll.id)))
        .orderBy(asc(pollAnswers.pollId), asc(pollAnswers.answeredAt));
      const byId = new Map(rows.map((poll, index) => [poll.id, { poll, number: index + 1 }]));
      const lines = answers.map((answer) => {
        const { poll, number } = byId.get(answer.pollId)!;
        const given = poll.kind === 'text' ? answer.text : answer.choices.map((choice) => poll.options[choice] ?? '').join('; ');
        const right = poll.graded ? (sameSet(answer.choices, poll.correct) ? 'yes' : 'no') : '';
        return [number, poll.question, poll.kind, poll.anonymous ? '' : answer.name, poll.anonymous ? '' : answer.email, given, right, utc(answer.at)];
      });
      return reply
        .status(200)
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachment(`poll-answers-${rows[0]!.openedAt.toISOString().slice(0, 10)}.csv`))
        .header('cache-control', 'no-store')
        .send(toCsv(header, lines));
    },
  };
}

/** A graded answer is right when it chose exactly the right answers. */
const sameSet = (chosen: number[], correct: number[]) => chosen.length === correct.length && chosen.every((choice) => correct.includes(choice));

export type PollAnswers = ReturnType<typeof createPollAnswers>;
