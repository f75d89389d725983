// Polls and quizzes: a host opens one (closing the one before), everyone in the room answers once, the
// hosts watch the answers come in, and the others see the results when a host shows them. A timed poll
// refuses answers after its time, whichever process is asked; the process that opened it tells the room
// when the time is up.
import { messages } from '@mooz/contract/messages';
import {
  pollAnswerPayload,
  pollClosePayload,
  pollOpenPayload,
  pollRevealPayload,
  pollStatePayload,
  type PollView,
} from '@mooz/contract/classroom-tools';
import type { FastifyInstance } from 'fastify';
import type { RoomAdmission } from '../admission';
import type { RoomControlsStore } from '../room-controls-store';
import type { RoomStore } from '../room-store';
import { peerChannel, roomChannel, type MeetingSocket, type RealtimeServer } from '../sockets';
import { placeIn } from './place';
import { pollClosed, pollStore, type Poll, type PollAnswer } from './poll-store';

type Handle = <P>(
  event: 'request:poll_open' | 'request:poll_answer' | 'request:poll_close' | 'request:poll_reveal' | 'request:poll_state',
  run: (payload: P, reply: (res: unknown) => void) => Promise<void>,
) => void;

export function pollService(app: FastifyInstance, io: RealtimeServer, store: RoomStore, controls: RoomControlsStore, admission: RoomAdmission) {
  const polls = pollStore(app.db);

  async function view(poll: Poll, { results, mine }: { results: boolean; mine: PollAnswer | null }): Promise<PollView> {
    const shown = results || poll.resultsShown;
    return {
      id: poll.id,
      question: poll.question,
      kind: poll.kind,
      options: poll.options,
      anonymous: poll.anonymous,
      graded: poll.graded,
      correct: poll.graded && shown && pollClosed(poll) ? poll.correct : null,
      openedAt: poll.openedAt.toISOString(),
      closesAt: poll.closesAt?.toISOString() ?? null,
      closed: pollClosed(poll),
      resultsShown: poll.resultsShown,
      mine,
      results: shown ? await polls.results(poll) : null,
    };
  }

  /** The hosts present, as socket.io channels. */
  async function hostChannels(roomId: string): Promise<string[]> {
    const members = await store.members(roomId, await controls.hostSessions(roomId));
    return members.flatMap((m) => (m ? [peerChannel(m.userId, m.peerId)] : []));
  }

  /** Everyone hears the change; the hosts with the results. */
  async function tell(poll: Poll, hostsOnly = false) {
    const hosts = await hostChannels(poll.roomId);
    if (!hostsOnly) {
      io.to(roomChannel(poll.roomId)).except(hosts).emit('action:poll', { roomId: poll.roomId, poll: await view(poll, { results: false, mine: null }) });
    }
    if (hosts.length) io.to(hosts).emit('action:poll', { roomId: poll.roomId, poll: await view(poll, { results: true, mine: null }) });
  }

  function tellWhenTimeIsUp(poll: Poll) {
    if (!poll.closesAt) return;
    setTimeout(() => {
      polls
        .find(poll.id)
        .then((now) => (now && now.closedAt === null ? tell(now) : undefined))
        .catch((error: unknown) => app.log.error({ err: error, pollId: poll.id }, 'telling a room its poll closed failed'));
    }, Math.max(0, poll.closesAt.getTime() - Date.now()) + 50).unref();
  }

  /** The room's poll `pollId`, for a host of the room. */
  async function hostedPoll(socket: MeetingSocket, roomId: string, pollId: number) {
    const place = await placeIn(socket, store, admission, roomId);
    if (!place?.host) return { error: messages.notAllowed };
    const poll = await polls.find(pollId);
    if (!poll || poll.roomId !== roomId) return { error: messages.pollNotFound };
    return { poll };
  }

  return {
    polls,

    serve(socket: MeetingSocket, handle: Handle) {
      const { user } = socket.data;

      handle<unknown>('request:poll_open', async (payload, reply) => {
        const parsed = pollOpenPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, poll: form } = parsed.data;
        const place = await placeIn(socket, store, admission, roomId);
        if (!place?.host) return reply({ error: messages.notAllowed });
        const poll = await polls.open(roomId, place.sessionId, user.id, form);
        reply({ poll: await view(poll, { results: true, mine: null }) });
        await tell(poll);
        tellWhenTimeIsUp(poll);
      });

      handle<unknown>('request:poll_answer', async (payload, reply) => {
        const parsed = pollAnswerPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, pollId, choices, text } = parsed.data;
        const place = await placeIn(socket, store, admission, roomId);
        if (!place) return reply({ error: messages.notAllowed });
        const poll = await polls.find(pollId);
        if (!poll || poll.roomId !== roomId) return reply({ error: messages.pollNotFound });
        if (pollClosed(poll)) return reply({ error: messages.pollClosed });
        const chosen = [...new Set(choices)].sort((a, b) => a - b);
        const valid =
          poll.kind === 'text'
            ? chosen.length === 0 && text.length > 0
            : !text && chosen.length > 0 && chosen.every((c) => c < poll.options.length) && (poll.kind === 'multiple' || chosen.length === 1);
        if (!valid) return reply({ error: messages.pollAnswerInvalid });
        const first = await polls.answer(poll.id, user.id, place.self.userName, { choices: chosen, text: poll.kind === 'text' ? text : '' });
        if (!first) return reply({ error: messages.pollAnsweredAlready });
        reply({ done: true });
        // The hosts watch the answers come in; the others see them when shown.
        await tell(poll, !poll.resultsShown);
      });

      handle<unknown>('request:poll_close', async (payload, reply) => {
        const parsed = pollClosePayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const found = await hostedPoll(socket, parsed.data.roomId, parsed.data.pollId);
        if ('error' in found) return reply(found);
        const poll = await polls.close(found.poll.id);
        reply({ done: true });
        await tell(poll!);
      });

      handle<unknown>('request:poll_reveal', async (payload, reply) => {
        const parsed = pollRevealPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const found = await hostedPoll(socket, parsed.data.roomId, parsed.data.pollId);
        if ('error' in found) return reply(found);
        const poll = await polls.reveal(found.poll.id, parsed.data.shown);
        reply({ done: true });
        await tell(poll!);
      });

      handle<unknown>('request:poll_state', async (payload, reply) => {
        const parsed = pollStatePayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const place = await placeIn(socket, store, admission, parsed.data.roomId);
        if (!place) return reply({ error: messages.notAllowed });
        const poll = await polls.latest(parsed.data.roomId);
        if (!poll) return reply({ poll: null });
        reply({ poll: await view(poll, { results: place.host, mine: await polls.mine(poll.id, user.id) }) });
      });
    },
  };
}
