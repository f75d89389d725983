// Breakout rooms of a live class: a host splits the people in the main room into groups, at random, by
// hand, or letting each student choose. Each group is a room of its own (its own video, mesh or SFU by
// its size, chat and whiteboard) whose id is made from the main room's, so everything a room has works
// there as it does anywhere; the server admits to a group only the hosts and the people in it. A class
// session's groups count as the session for attendance.
import { z } from 'zod';
import { limits } from './limits';
import { validationMessages } from './messages';

export const breakoutLimits = {
  minGroups: 2,
  maxGroups: 20,
  /** Timed rooms close by themselves after this many minutes at most (and at least the first). */
  minMinutes: 1,
  maxMinutes: 120,
  /** Everyone in a group is told this long before timed rooms close. */
  warnBeforeMs: 60_000,
} as const;

export const breakoutModes = ['random', 'manual', 'choose'] as const;
export type BreakoutMode = (typeof breakoutModes)[number];

const roomId = z.string().trim().min(1).max(128);
const group = z.number().int().min(0).max(breakoutLimits.maxGroups - 1);
const userId = z.number().int().positive();

/** A group's room id: the main room's, then the round and the group (both parts of it are ours). */
export const groupRoomId = (mainRoomId: string, breakoutId: number, group: number) => `${mainRoomId}~b${breakoutId}g${group + 1}`;

/** The main room, round and group a group's room id names; null for any other room id. */
export function parseGroupRoomId(id: string): { mainRoomId: string; breakoutId: number; group: number } | null {
  const found = /^(.+)~b(\d{1,9})g(\d{1,2})$/.exec(id);
  if (!found) return null;
  return { mainRoomId: found[1]!, breakoutId: Number(found[2]), group: Number(found[3]) - 1 };
}

/** The main room of a room id: itself, or the room a group belongs to. */
export const mainRoomOf = (roomId: string) => parseGroupRoomId(roomId)?.mainRoomId ?? roomId;

/** The host's split. By hand, `assignments` place people (accounts in the room); the others stay in the main room. */
export const breakoutForm = z
  .object({
    groups: z.number().int().min(breakoutLimits.minGroups).max(breakoutLimits.maxGroups),
    mode: z.enum(breakoutModes),
    /** Closes by itself after this many minutes; null: when a host brings everyone back. */
    minutes: z.number().int().min(breakoutLimits.minMinutes).max(breakoutLimits.maxMinutes).nullable().default(null),
    assignments: z.array(z.object({ userId, group })).max(limits.meetingMaxCapacity).default([]),
  })
  .superRefine((form, context) => {
    if (form.mode !== 'manual' && form.assignments.length) context.addIssue({ code: 'custom', path: ['assignments'], message: 'Only a split by hand places people' });
    if (form.mode === 'manual' && !form.assignments.length) context.addIssue({ code: 'custom', path: ['assignments'], message: validationMessages.required });
    if (form.assignments.some((a) => a.group >= form.groups)) context.addIssue({ code: 'custom', path: ['assignments'], message: 'No such group' });
    if (new Set(form.assignments.map((a) => a.userId)).size !== form.assignments.length)
      context.addIssue({ code: 'custom', path: ['assignments'], message: 'One group per person' });
  });
export type BreakoutForm = z.input<typeof breakoutForm>;
export type BreakoutSettings = z.output<typeof breakoutForm>;

export const breakoutOpenPayload = z.object({ roomId, breakouts: breakoutForm });
/** A student's choice (mode `choose`), or a host moving someone (any mode). */
export const breakoutChoosePayload = z.object({ roomId, group });
export const breakoutMovePayload = z.object({ roomId, userId, group });
export const breakoutBroadcastPayload = z.object({ roomId, text: z.string().trim().min(1).max(limits.chatMaxLength) });
/** `roomId`: the main room, or one of its groups. */
export const breakoutRoomPayload = z.object({ roomId });

export interface BreakoutPerson {
  userId: number;
  userName: string;
}

export interface BreakoutGroup {
  /** The group's room (groupRoomId). */
  roomId: string;
  /** The accounts placed in it, by name. */
  members: BreakoutPerson[];
}

/** The main room's breakout rooms as they stand. */
export interface BreakoutView {
  id: number;
  /** The main room. */
  roomId: string;
  mode: BreakoutMode;
  groups: BreakoutGroup[];
  openedAt: string;
  /** When timed rooms close by themselves. */
  endsAt: string | null;
  /** Everyone is back in the main room (a host closed them, or their time is up). */
  closed: boolean;
}

type Answer<T> = (res: T | { error: string }) => void;

export interface BreakoutClientEvents {
  /** A host splits the main room into groups (ending any split still open). */
  'request:breakouts_open': (payload: { roomId: string; breakouts: BreakoutForm }, ack?: Answer<{ breakouts: BreakoutView }>) => void;
  /** A student in the main room picks a group, while the split lets them choose. */
  'request:breakouts_choose': (payload: { roomId: string; group: number }, ack?: Answer<{ breakouts: BreakoutView }>) => void;
  /** A host places someone in a group (a late comer, a change of mind). */
  'request:breakouts_move': (payload: { roomId: string; userId: number; group: number }, ack?: Answer<{ breakouts: BreakoutView }>) => void;
  /** A host's message to the main room and every group. */
  'request:breakouts_broadcast': (payload: { roomId: string; text: string }, ack?: Answer<{ done: true }>) => void;
  /** A host brings everyone back to the main room. */
  'request:breakouts_close': (payload: { roomId: string }, ack?: Answer<{ done: true }>) => void;
  /**
   * The split as it stands, from the main room or a group (after a join or a reconnect); null when none
   * is open. To a host, `unplaced`: the people in the main room now who are in no group (everyone but
   * the hosts when no split is open), to split by hand or to place.
   */
  'request:breakouts_state': (payload: { roomId: string }, ack: Answer<{ breakouts: BreakoutView | null; unplaced: BreakoutPerson[] }>) => void;
}

export interface BreakoutServerEvents {
  /** To the main room and every group: the split opened, changed or closed. */
  'action:breakouts': (payload: { roomId: string; breakouts: BreakoutView }) => void;
  /** To the main room and every group: a host's message to all. */
  'action:breakouts_broadcast': (payload: { roomId: string; fromName: string; text: string }) => void;
}
