import { describe, expect, it } from 'vitest';
import { createRoomPayload, joinRoomPayload, sendMessagePayload, videoBitrateKbps } from './realtime';

describe('video bitrate budget', () => {
  it('shares 2000 kbps among the connections', () => {
    expect(videoBitrateKbps(1)).toBe(2000);
    expect(videoBitrateKbps(2)).toBe(1000);
    expect(videoBitrateKbps(3)).toBe(666);
    expect(videoBitrateKbps(13)).toBe(153);
  });

  it('never goes below 150 kbps, and treats no connection as one', () => {
    expect(videoBitrateKbps(14)).toBe(150);
    expect(videoBitrateKbps(49)).toBe(150);
    expect(videoBitrateKbps(0)).toBe(2000);
  });
});

describe('signalling payloads', () => {
  it('fills in the meeting defaults: Mooz Meeting, capacity 10', () => {
    expect(createRoomPayload.parse({ room: {} })).toEqual({ room: { name: 'Mooz Meeting', capacity: 10 } });
  });

  it('rejects capacities outside 2..200 (the largest room, with an SFU) and non-integers', () => {
    for (const capacity of [1, 201, 2.5, 'ten']) expect(createRoomPayload.safeParse({ room: { capacity } }).success).toBe(false);
  });

  it('needs a user name to join and a data object to relay', () => {
    expect(joinRoomPayload.safeParse({ roomId: 'r', userName: '   ' }).success).toBe(false);
    expect(sendMessagePayload.safeParse({ to: 'a', roomId: 'r', data: 'text' }).success).toBe(false);
    expect(sendMessagePayload.safeParse({ to: 'a', roomId: 'r', data: { connection: true, userName: 'A' } }).success).toBe(true);
  });
});
