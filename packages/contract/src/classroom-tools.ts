// Tools of a live class beside the whiteboard: reactions, private messages and polls (quizzes). They
// travel over the meeting's socket, in mesh and SFU rooms alike, and the server decides everything:
// who may send what to whom, who may open a poll, one answer per account.
import { z } from 'zod';
import { limits } from './limits';
import { validationMessages } from './messages';

export const classroomToolLimits = {
  /** Reactions of one connection: a burst, then one per this many milliseconds. */
  reactionBurst: 3,
  reactionEveryMs: 1_000,
  /** How long a reaction floats over its sender's tile. */
  reactionShowMs: 4_000,
  pollQuestionMaxLength: 300,
  pollOptionMaxLength: 120,
  pollMinOptions: 2,
  pollMaxOptions: 6,
  pollTextAnswerMaxLength: 500,
  /** A timed poll closes after this many seconds at most (and at least the first). */
  pollMinSeconds: 10,
  pollMaxSeconds: 60 * 60,
} as const;

export const reactions = ['👍', '👏', '😂', '❤️', '😮', '❓'] as const;
export type Reaction = (typeof reactions)[number];

const roomId = z.string().trim().min(1).max(128);
const peerId = z.string().min(1).max(128);
const chat = z.object({
  id: z.string().min(1).max(64),
  text: z.string().trim().min(1).max(limits.chatMaxLength),
});

export const reactionPayload = z.object({ roomId, reaction: z.enum(reactions) });
/** A chat to one person (`to`, a peer id in the room). */
export const privateMessagePayload = z.object({ roomId, to: peerId, chat });

export const pollKinds = ['single', 'multiple', 'text'] as const;
export type PollKind = (typeof pollKinds)[number];

const optionText = z.string().trim().min(1, validationMessages.required).max(classroomToolLimits.pollOptionMaxLength);
/** The host's new poll. A graded one names its right answers (choices only) and counts on the dashboard. */
export const pollForm = z
  .object({
    question: z.string().trim().min(1, validationMessages.required).max(classroomToolLimits.pollQuestionMaxLength),
    kind: z.enum(pollKinds),
    /** 2–6 answers to choose from; none for a free-text poll. */
    options: z.array(optionText).max(classroomToolLimits.pollMaxOptions).default([]),
    /** Closes by itself after this many seconds; null: when the host closes it. */
    seconds: z.number().int().min(classroomToolLimits.pollMinSeconds).max(classroomToolLimits.pollMaxSeconds).nullable().default(null),
    anonymous: z.boolean().default(true),
    graded: z.boolean().default(false),
    /** With `graded`: the indexes of the right answers (one for single choice). */
    correct: z.array(z.number().int().min(0).max(classroomToolLimits.pollMaxOptions - 1)).max(classroomToolLimits.pollMaxOptions).default([]),
  })
  .superRefine((poll, context) => {
    const choices = poll.kind !== 'text';
    if (choices && poll.options.length < classroomToolLimits.pollMinOptions) {
      context.addIssue({ code: 'custom', path: ['options'], message: `At least ${classroomToolLimits.pollMinOptions} answers` });
    }
    if (!choices && poll.options.length) context.addIssue({ code: 'custom', path: ['options'], message: 'A free-text poll has no answers to choose' });
    if (poll.graded) {
      if (!choices) context.addIssue({ code: 'custom', path: ['graded'], message: 'Only a choice can be graded' });
      else if (!poll.correct.length || poll.correct.some((index) => index >= poll.options.length))
        context.addIssue({ code: 'custom', path: ['correct'], message: 'Mark the right answer' });
      else if (poll.kind === 'single' && poll.correct.length !== 1) context.addIssue({ code: 'custom', path: ['correct'], message: 'Mark one right answer' });
    }
  });
export type PollForm = z.input<typeof pollForm>;
export type PollSettings = z.output<typeof pollForm>;

export const pollOpenPayload = z.object({ roomId, poll: pollForm });
const pollId = z.number().int().positive();
export const pollAnswerPayload = z.object({
  roomId,
  pollId,
  choices: z.array(z.number().int().min(0).max(classroomToolLimits.pollMaxOptions - 1)).max(classroomToolLimits.pollMaxOptions).default([]),
  text: z.string().trim().max(classroomToolLimits.pollTextAnswerMaxLength).default(''),
});
/** The host closes the poll, or shows (or hides) its results to everyone. */
export const pollClosePayload = z.object({ roomId, pollId });
export const pollRevealPayload = z.object({ roomId, pollId, shown: z.boolean() });
export const pollStatePayload = z.object({ roomId });

/** What a poll's answers add up to: seen by hosts at once, by the others when shown. */
export interface PollResults {
  answered: number;
  /** Per answer to choose, how many chose it (none for free text). */
  counts: number[];
  /** Free-text answers, and with a named poll who answered what (choices as indexes). */
  answers: { name: string | null; choices: number[]; text: string }[];
}

/** The room's poll, as each person sees it. */
export interface PollView {
  id: number;
  question: string;
  kind: PollKind;
  options: string[];
  anonymous: boolean;
  graded: boolean;
  /** Shown with the results (graded polls). */
  correct: number[] | null;
  openedAt: string;
  /** When a timed poll closes by itself. */
  closesAt: string | null;
  closed: boolean;
  resultsShown: boolean;
  /** This person's own answer, once given. */
  mine: { choices: number[]; text: string } | null;
  /** For hosts always; for the others once shown. */
  results: PollResults | null;
}

export interface ClassroomToolClientEvents {
  /** A reaction over this participant's tile, to everyone else in the room; rate-limited. */
  'request:reaction': (payload: { roomId: string; reaction: Reaction }, ack?: (res: { done: true } | { error: string }) => void) => void;
  /**
   * A chat to one person only (hosts may turn student-to-student private chat off: the moderation
   * actions `lock_private_chat` / `unlock_private_chat`; to and from a host it is always allowed).
   */
  'request:private_message': (
    payload: { roomId: string; to: string; chat: { id: string; text: string } },
    ack?: (res: { delivered: true } | { error: string }) => void,
  ) => void;
  /** A host opens a poll (closing one still open). */
  'request:poll_open': (payload: { roomId: string; poll: PollForm }, ack?: (res: { poll: PollView } | { error: string }) => void) => void;
  /** One answer per account; choices are indexes of `options`, text for a free-text poll. */
  'request:poll_answer': (
    payload: { roomId: string; pollId: number; choices?: number[]; text?: string },
    ack?: (res: { done: true } | { error: string }) => void,
  ) => void;
  'request:poll_close': (payload: { roomId: string; pollId: number }, ack?: (res: { done: true } | { error: string }) => void) => void;
  'request:poll_reveal': (payload: { roomId: string; pollId: number; shown: boolean }, ack?: (res: { done: true } | { error: string }) => void) => void;
  /** The room's latest poll as this person sees it (after a join or a reconnect); null when none. */
  'request:poll_state': (payload: { roomId: string }, ack: (res: { poll: PollView | null } | { error: string }) => void) => void;
}

export interface ClassroomToolServerEvents {
  'action:reaction': (payload: { roomId: string; from: string; reaction: Reaction }) => void;
  'action:private_message': (payload: { roomId: string; from: string; fromName: string; chat: { id: string; text: string } }) => void;
  /**
   * The room's poll changed: opened, closed or shown to everyone (`mine` null: each client keeps its own
   * answer); and, to the hosts only, each new answer (with the results).
   */
  'action:poll': (payload: { roomId: string; poll: PollView }) => void;
}
