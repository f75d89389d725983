// A received video track Chrome leaves muted while its packets flow still shows its picture, and stops
// showing it when they stop; an unmuted live track shows it, an ended one never.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { receiverCheckMs, showsPicture, watchReceiver } from './receiving';

interface FakeTrack {
  readyState: 'live' | 'ended';
  muted: boolean;
}

function fakeReceiver(track: FakeTrack) {
  const source = { rtpTimestamp: 1_000 };
  const receiver = { track, getSynchronizationSources: () => [source] } as unknown as RTCRtpReceiver;
  return { receiver, packetArrives: () => (source.rtpTimestamp += 18_000) };
}

const asTrack = (track: FakeTrack) => track as unknown as MediaStreamTrack;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('whether a video track shows a picture', () => {
  it('shows a live unmuted track, and not a muted or an ended one', () => {
    expect(showsPicture(asTrack({ readyState: 'live', muted: false }))).toBe(true);
    expect(showsPicture(asTrack({ readyState: 'live', muted: true }))).toBe(false);
    expect(showsPicture(asTrack({ readyState: 'ended', muted: false }))).toBe(false);
  });

  it('shows a muted received track whose packets flow, and hides it again when they stop', () => {
    const track: FakeTrack = { readyState: 'live', muted: true };
    const { receiver, packetArrives } = fakeReceiver(track);
    const changed = vi.fn();
    watchReceiver(receiver, changed);

    vi.advanceTimersByTime(receiverCheckMs);
    packetArrives();
    vi.advanceTimersByTime(receiverCheckMs);
    expect(showsPicture(asTrack(track))).toBe(true);
    expect(changed).toHaveBeenCalledTimes(1);

    packetArrives();
    vi.advanceTimersByTime(receiverCheckMs);
    expect(changed).toHaveBeenCalledTimes(1);

    // The sender stopped sending: no packet since the last look.
    vi.advanceTimersByTime(receiverCheckMs);
    expect(showsPicture(asTrack(track))).toBe(false);
    expect(changed).toHaveBeenCalledTimes(2);
  });

  it('leaves a muted track with no packets as it is, and stops looking once the track ends', () => {
    const track: FakeTrack = { readyState: 'live', muted: true };
    const { receiver } = fakeReceiver(track);
    const look = vi.spyOn(receiver, 'getSynchronizationSources');
    const changed = vi.fn();
    watchReceiver(receiver, changed);
    vi.advanceTimersByTime(3 * receiverCheckMs);
    expect(showsPicture(asTrack(track))).toBe(false);
    expect(changed).not.toHaveBeenCalled();

    track.readyState = 'ended';
    vi.advanceTimersByTime(receiverCheckMs);
    const looks = look.mock.calls.length;
    vi.advanceTimersByTime(5 * receiverCheckMs);
    expect(look.mock.calls.length).toBe(looks);
  });

  it('watches a track once, however many track events bring it', () => {
    const track: FakeTrack = { readyState: 'live', muted: true };
    const { receiver } = fakeReceiver(track);
    const look = vi.spyOn(receiver, 'getSynchronizationSources');
    watchReceiver(receiver, vi.fn());
    watchReceiver(receiver, vi.fn());
    vi.advanceTimersByTime(receiverCheckMs);
    expect(look).toHaveBeenCalledTimes(1);
  });

  it('does not look at the receiver of an unmuted track', () => {
    const track: FakeTrack = { readyState: 'live', muted: false };
    const { receiver } = fakeReceiver(track);
    const look = vi.spyOn(receiver, 'getSynchronizationSources');
    watchReceiver(receiver, vi.fn());
    vi.advanceTimersByTime(3 * receiverCheckMs);
    expect(look).not.toHaveBeenCalled();
  });
});
