// How a room's media flows, as one rule: peer to peer (the mesh) while it is small, through the SFU
// once it has more than MESH_MAX_PEOPLE people and an SFU is up, and on the SFU until it empties (a
// room that shrinks does not move back: every move costs everyone a renegotiation).
import { limits } from '@mooz/contract/limits';
import type { RoomTopology } from '@mooz/contract/realtime';

export function decideTopology(current: RoomTopology, people: number, meshMaxPeople: number, sfuUp: boolean): RoomTopology {
  if (current === 'sfu') return 'sfu';
  return people > meshMaxPeople && sfuUp ? 'sfu' : 'mesh';
}

/** The most people a room may hold: the mesh's limit without an SFU, the SFU's with one. */
export function capacityLimit(sfuConfigured: boolean): number {
  return sfuConfigured ? limits.meetingMaxCapacity : limits.meshMaxCapacity;
}
