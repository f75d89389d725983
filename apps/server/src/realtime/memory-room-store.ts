// The room store in process memory: the whole truth for a single server, and the mirror of this
// process's own rooms and members that the Redis store falls back on while Redis is away
// (mirrored-room-store.ts). The join rules are room-store.ts's, the same as the Redis script's.
import type { Room } from '@mooz/contract/realtime';
import type { Member, RoomStore } from './room-store';

export interface MemoryRoomStore extends RoomStore {
  /** Records a member another store already admitted, without applying the rules again. */
  hold(roomId: string, member: Member, room?: Room): void;
  /** Forgets a member that lost its place elsewhere, without it leaving. */
  drop(roomId: string, peerId: string): void;
  /** What a restore needs: the ad hoc rooms known, and every room with members, members in join order. */
  snapshot(): { adHocRooms: Room[]; occupied: { room: Room; members: Member[] }[] };
}

export function memoryRoomStore(idleRoomTtlSeconds: number, now: () => number = Date.now): MemoryRoomStore {
  /** Ad hoc rooms, by id: those created here and, as a mirror, those found in Redis. */
  const adHoc = new Map<string, { room: Room; touchedAt: number }>();
  /** Rooms with members, ad hoc or a class session's, with the room's capacity and host. */
  const occupied = new Map<string, { room: Room; members: Map<string, Member> }>();

  const idle = (roomId: string, touchedAt: number) => touchedAt < now() - idleRoomTtlSeconds * 1000 && !occupied.has(roomId);
  function forgetIdleRooms() {
    for (const [id, entry] of adHoc) if (idle(id, entry.touchedAt)) adHoc.delete(id);
  }
  function touch(roomId: string) {
    const entry = adHoc.get(roomId);
    if (entry) entry.touchedAt = now();
  }
  function remove(roomId: string, peerId: string) {
    const place = occupied.get(roomId);
    if (!place?.members.delete(peerId)) return;
    if (!place.members.size) {
      occupied.delete(roomId);
      touch(roomId);
    }
  }

  return {
    async saveRoom(room) {
      forgetIdleRooms();
      adHoc.set(room.id, { room, touchedAt: now() });
    },
    async findRoom(roomId) {
      const entry = adHoc.get(roomId);
      if (!entry) return null;
      if (idle(roomId, entry.touchedAt)) {
        adHoc.delete(roomId);
        return null;
      }
      return entry.room;
    },
    async join(room, member) {
      touch(room.id);
      const inRoom = occupied.get(room.id)?.members ?? new Map<string, Member>();
      const existing = inRoom.get(member.peerId);
      if (existing && existing.userId !== member.userId) return { status: 'taken' };
      const replaced = [...inRoom.values()].filter((m) => m.userId === member.userId && m.peerId !== member.peerId);
      // A takeover reuses the account's place; the host is never kept out (room-store.ts).
      const host = room.created_by !== null && member.userId === room.created_by;
      if (!existing && !replaced.length && !host && inRoom.size >= room.capacity) return { status: 'full' };
      for (const gone of replaced) inRoom.delete(gone.peerId);
      const others = [...inRoom.values()].filter((m) => m.peerId !== member.peerId);
      inRoom.set(member.peerId, { ...member });
      occupied.set(room.id, { room, members: inRoom });
      return { status: existing ? 'rejoined' : 'joined', others, gone: [], replaced };
    },
    async member(roomId, peerId) {
      const found = occupied.get(roomId)?.members.get(peerId);
      return found ? { ...found } : null;
    },
    async members(roomId, sessionIds) {
      const inRoom = occupied.get(roomId)?.members;
      return sessionIds.map((id) => {
        const found = inRoom?.get(id);
        return found ? { ...found } : null;
      });
    },
    peek(roomId, peerId) {
      return occupied.get(roomId)?.members.get(peerId) ?? null;
    },
    async list(roomId) {
      return [...(occupied.get(roomId)?.members.values() ?? [])].map((m) => ({ ...m }));
    },
    async attach(roomId, peerId, userId, connectionId, room) {
      const place = occupied.get(roomId);
      const existing = place?.members.get(peerId);
      if (!place || !existing || existing.userId !== userId) return null;
      existing.connectionId = connectionId;
      existing.connectedAt = now();
      if (room) place.room = room;
      return { ...existing };
    },
    async leave(roomId, peerId, connectionId) {
      const existing = occupied.get(roomId)?.members.get(peerId);
      if (!existing) return null;
      if (connectionId !== undefined && existing.connectionId !== connectionId) return null;
      remove(roomId, peerId);
      return existing;
    },
    hold(roomId, member, room) {
      const place = occupied.get(roomId);
      if (!place && !room) return;
      const members = place?.members ?? new Map<string, Member>();
      members.set(member.peerId, { ...member });
      occupied.set(roomId, { room: room ?? place!.room, members });
      touch(roomId);
    },
    drop(roomId, peerId) {
      remove(roomId, peerId);
    },
    snapshot() {
      forgetIdleRooms();
      return {
        adHocRooms: [...adHoc.values()].map((entry) => entry.room),
        occupied: [...occupied.values()].map(({ room, members }) => ({ room, members: [...members.values()].map((m) => ({ ...m })) })),
      };
    },
    async close() {},
  };
}
