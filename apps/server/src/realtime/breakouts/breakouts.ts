// Breakout rooms: a host splits the people in the main room into groups (at random, by hand, or letting
// them choose), places late comers, speaks to every group at once, and brings everyone back; timed
// groups close by themselves. The clients move between the rooms; the server decides who may enter a
// group (admission.ts) and tells the main room and every group of each change, whichever process holds
// them. The process that opened a timed split tells the rooms when its time is up.
import { randomInt } from 'node:crypto';
import { messages } from '@mooz/contract/messages';
import {
  breakoutBroadcastPayload,
  breakoutChoosePayload,
  breakoutMovePayload,
  breakoutOpenPayload,
  breakoutRoomPayload,
  groupRoomId,
  mainRoomOf,
  parseGroupRoomId,
  type BreakoutView,
} from '@mooz/contract/breakouts';
import type { FastifyInstance } from 'fastify';
import type { RoomAdmission } from '../admission';
import { placeIn } from '../classroom-tools/place';
import type { RoomControlsStore } from '../room-controls-store';
import type { Member, RoomStore } from '../room-store';
import { roomChannel, type MeetingSocket, type RealtimeServer } from '../sockets';
import { breakoutClosed, breakoutStore, type Breakout, type Placement } from './breakout-store';

type Handle = <P>(
  event:
    | 'request:breakouts_open'
    | 'request:breakouts_choose'
    | 'request:breakouts_move'
    | 'request:breakouts_broadcast'
    | 'request:breakouts_close'
    | 'request:breakouts_state',
  run: (payload: P, reply: (res: unknown) => void) => Promise<void>,
) => void;


function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function breakoutService(app: FastifyInstance, io: RealtimeServer, store: RoomStore, controls: RoomControlsStore, admission: RoomAdmission) {
  const splits = breakoutStore(app.db);

  async function view(breakout: Breakout): Promise<BreakoutView> {
    const placed = await splits.placements(breakout.id);
    return {
      id: breakout.id,
      roomId: breakout.roomId,
      mode: breakout.mode,
      groups: Array.from({ length: breakout.groups }, (_, group) => ({
        roomId: groupRoomId(breakout.roomId, breakout.id, group),
        members: placed.filter((p) => p.group === group).map(({ userId, userName }) => ({ userId, userName })),
      })),
      openedAt: breakout.openedAt.toISOString(),
      endsAt: breakout.endsAt?.toISOString() ?? null,
      closed: breakoutClosed(breakout),
    };
  }

  /** The main room and every group hear it. */
  async function tell(breakout: Breakout): Promise<BreakoutView> {
    const shown = await view(breakout);
    const rooms = [breakout.roomId, ...shown.groups.map((g) => g.roomId)].map(roomChannel);
    io.to(rooms).emit('action:breakouts', { roomId: breakout.roomId, breakouts: shown });
    return shown;
  }

  function closeWhenTimeIsUp(breakout: Breakout) {
    if (!breakout.endsAt) return;
    setTimeout(() => {
      splits
        .close(breakout.id)
        .then(async (closedNow) => {
          const now = closedNow ? await splits.find(breakout.id) : null;
          if (now) await tell(now);
        })
        .catch((error: unknown) => app.log.error({ err: error, breakoutId: breakout.id }, 'closing timed breakout rooms failed'));
    }, Math.max(0, breakout.endsAt.getTime() - Date.now()) + 50).unref();
  }

  /** The main room's split while it is open. */
  async function openSplit(mainRoomId: string): Promise<Breakout | null> {
    const breakout = await splits.latest(mainRoomId);
    return breakout && !breakoutClosed(breakout) ? breakout : null;
  }

  /** The people in the main room now who are not its hosts, one place per account. */
  async function studentsIn(roomId: string): Promise<Member[]> {
    const hosts = new Set(await controls.hostSessions(roomId));
    const known = await admission.lookup(roomId);
    const byAccount = new Map<number, Member>();
    for (const member of await store.list(roomId)) {
      if (hosts.has(member.peerId) || member.userId === known?.room.created_by) continue;
      byAccount.set(member.userId, member);
    }
    return [...byAccount.values()];
  }

  /** The open split `roomId` (the main room or a group) belongs to, for a host in that room. */
  async function hostedSplit(socket: MeetingSocket, roomId: string) {
    const place = await placeIn(socket, store, admission, roomId);
    if (!place?.host) return { error: messages.notAllowed };
    const breakout = await openSplit(mainRoomOf(roomId));
    return breakout ? { breakout } : { error: messages.breakoutsNotOpen };
  }

  return {
    serve(socket: MeetingSocket, handle: Handle) {
      const { user } = socket.data;

      handle<unknown>('request:breakouts_open', async (payload, reply) => {
        const parsed = breakoutOpenPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, breakouts: form } = parsed.data;
        // Groups are split from a main room only, by one of its hosts.
        if (parseGroupRoomId(roomId)) return reply({ error: messages.notAllowed });
        const place = await placeIn(socket, store, admission, roomId);
        if (!place?.host) return reply({ error: messages.notAllowed });
        const students = await studentsIn(roomId);
        let placements: Placement[] = [];
        if (form.mode === 'random') {
          if (!students.length) return reply({ error: messages.breakoutNoOneToSplit });
          placements = shuffled(students).map((m, i) => ({ userId: m.userId, userName: m.userName, group: i % form.groups }));
        } else if (form.mode === 'manual') {
          const present = new Map(students.map((m) => [m.userId, m]));
          if (form.assignments.some((a) => !present.has(a.userId))) return reply({ error: messages.validationFailed });
          placements = form.assignments.map((a) => ({ userId: a.userId, userName: present.get(a.userId)!.userName, group: a.group }));
        }
        const breakout = await splits.open(
          { roomId, sessionId: place.sessionId, openedBy: user.id, mode: form.mode, groups: form.groups, minutes: form.minutes },
          placements,
        );
        reply({ breakouts: await tell(breakout) });
        closeWhenTimeIsUp(breakout);
      });

      handle<unknown>('request:breakouts_choose', async (payload, reply) => {
        const parsed = breakoutChoosePayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, group } = parsed.data;
        const place = await placeIn(socket, store, admission, roomId);
        if (!place || parseGroupRoomId(roomId)) return reply({ error: messages.notAllowed });
        const breakout = await openSplit(roomId);
        if (!breakout) return reply({ error: messages.breakoutsNotOpen });
        if (breakout.mode !== 'choose' || place.host) return reply({ error: messages.notAllowed });
        if (group >= breakout.groups) return reply({ error: messages.validationFailed });
        await splits.place(breakout.id, { userId: user.id, userName: place.self.userName, group });
        reply({ breakouts: await tell(breakout) });
      });

      handle<unknown>('request:breakouts_move', async (payload, reply) => {
        const parsed = breakoutMovePayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, userId, group } = parsed.data;
        const found = await hostedSplit(socket, roomId);
        if ('error' in found) return reply(found);
        const { breakout } = found;
        if (group >= breakout.groups) return reply({ error: messages.validationFailed });
        // Someone in the main room now, or placed already (moved from another group).
        const inMain = (await studentsIn(breakout.roomId)).find((m) => m.userId === userId);
        const placed = (await splits.placements(breakout.id)).find((p) => p.userId === userId);
        const userName = inMain?.userName ?? placed?.userName;
        if (!userName) return reply({ error: messages.validationFailed });
        await splits.place(breakout.id, { userId, userName, group });
        reply({ breakouts: await tell(breakout) });
      });

      handle<unknown>('request:breakouts_broadcast', async (payload, reply) => {
        const parsed = breakoutBroadcastPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const found = await hostedSplit(socket, parsed.data.roomId);
        if ('error' in found) return reply(found);
        const { breakout } = found;
        const [self] = await store.members(parsed.data.roomId, [socket.data.peerId]);
        const rooms = [breakout.roomId, ...Array.from({ length: breakout.groups }, (_, g) => groupRoomId(breakout.roomId, breakout.id, g))];
        io.to(rooms.map(roomChannel)).emit('action:breakouts_broadcast', { roomId: breakout.roomId, fromName: self?.userName ?? '', text: parsed.data.text });
        reply({ done: true });
      });

      handle<unknown>('request:breakouts_close', async (payload, reply) => {
        const parsed = breakoutRoomPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const found = await hostedSplit(socket, parsed.data.roomId);
        if ('error' in found) return reply(found);
        if (await splits.close(found.breakout.id)) {
          const closed = await splits.find(found.breakout.id);
          if (closed) await tell(closed);
        }
        reply({ done: true });
      });

      handle<unknown>('request:breakouts_state', async (payload, reply) => {
        const parsed = breakoutRoomPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId } = parsed.data;
        const place = await placeIn(socket, store, admission, roomId);
        if (!place) return reply({ error: messages.notAllowed });
        const main = mainRoomOf(roomId);
        const breakout = await openSplit(main);
        /** To a host, who in the main room is in no group. */
        const unplaced = async (view: BreakoutView | null) => {
          if (!place.host) return [];
          const placed = new Set(view?.groups.flatMap((g) => g.members.map((m) => m.userId)));
          return (await studentsIn(main)).filter((m) => !placed.has(m.userId)).map(({ userId, userName }) => ({ userId, userName }));
        };
        if (!breakout) return reply({ breakouts: null, unplaced: await unplaced(null) });
        // A late comer to the main room of a random split joins the smallest group, as if dealt in.
        if (breakout.mode === 'random' && !place.host && roomId === breakout.roomId && (await splits.groupOf(breakout.id, user.id)) === null) {
          const sizes = Array.from({ length: breakout.groups }, () => 0);
          for (const p of await splits.placements(breakout.id)) sizes[p.group]! += 1;
          const group = sizes.indexOf(Math.min(...sizes));
          await splits.place(breakout.id, { userId: user.id, userName: place.self.userName, group });
          return reply({ breakouts: await tell(breakout), unplaced: [] });
        }
        const shown = await view(breakout);
        reply({ breakouts: shown, unplaced: await unplaced(shown) });
      });
    },
  };
}

export type BreakoutService = ReturnType<typeof breakoutService>;
