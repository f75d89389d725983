// Who is offered the Record button, which format is recorded, and how the sound mix follows the people
// in the meeting (a Web Audio stand-in records what is connected to the mix).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Room } from '@mooz/contract/realtime';
import type { Peer } from '../meeting-store';
import { createAudioMix, meetingAudioTracks, type MixContext } from './audio-mix';
import { canRecord, mimeTypeCandidates, pickMimeType } from './recorder';
import { formatElapsed } from './record-control';

const room = (createdBy: number | null): Room => ({ id: 'room-1', name: 'Pottery', capacity: 10, created_by: createdBy });

describe('who may record', () => {
  it("is the room's host (a session's teacher, an ad hoc room's creator)", () => {
    expect(canRecord({ id: 3, user_type: 'teacher' }, room(3))).toBe(true);
    expect(canRecord({ id: 9, user_type: 'student' }, room(9))).toBe(true);
  });

  it('is any admin', () => {
    expect(canRecord({ id: 1, user_type: 'admin' }, room(3))).toBe(true);
    expect(canRecord({ id: 1, role: 'admin' }, room(null))).toBe(true);
  });

  it('is nobody else, and nobody before the room is known', () => {
    expect(canRecord({ id: 4, user_type: 'teacher' }, room(3))).toBe(false);
    expect(canRecord({ id: 5, user_type: 'student' }, room(3))).toBe(false);
    expect(canRecord({ user_type: 'student' }, room(null))).toBe(false);
    expect(canRecord({ id: 3, user_type: 'teacher' }, null)).toBe(false);
    expect(canRecord(null, room(3))).toBe(false);
  });
});

describe('the recorded format', () => {
  it('is WebM with VP8 and Opus where the browser has it', () => {
    expect(pickMimeType(() => true)).toBe('video/webm;codecs=vp8,opus');
  });

  it('falls back to the next WebM the browser can write, and to none', () => {
    expect(pickMimeType((type) => type === 'video/webm')).toBe('video/webm');
    expect(pickMimeType((type) => type === 'video/webm;codecs=vp9,opus')).toBe('video/webm;codecs=vp9,opus');
    expect(pickMimeType((type) => type === 'video/mp4')).toBeNull();
    expect(mimeTypeCandidates.every((type) => type.startsWith('video/webm'))).toBe(true);
  });
});

describe('the elapsed time on the Stop button', () => {
  it('reads m:ss, and h:mm:ss past an hour', () => {
    expect(formatElapsed(0)).toBe('0:00');
    expect(formatElapsed(5_400)).toBe('0:05');
    expect(formatElapsed(754_000)).toBe('12:34');
    expect(formatElapsed(3_723_000)).toBe('1:02:03');
  });
});

class StandInTrack {
  enabled = true;
  readyState: 'live' | 'ended' = 'live';
  constructor(
    readonly id: string,
    readonly kind: 'audio' | 'video' = 'audio',
  ) {}
  stop() {
    this.readyState = 'ended';
  }
}

class StandInStream {
  constructor(readonly tracks: StandInTrack[]) {}
  getTracks() {
    return this.tracks;
  }
  getAudioTracks() {
    return this.tracks.filter((track) => track.kind === 'audio');
  }
}

/** Web Audio as far as the mix uses it: which track each source reads, and whether it is connected. */
function standInContext() {
  const connected = new Set<string>();
  const output = new StandInTrack('mixed');
  const silence = { started: false, stopped: false };
  const context: MixContext = {
    createMediaStreamDestination: () => ({ stream: new StandInStream([output]) as unknown as MediaStream }),
    createConstantSource: () => ({
      offset: { value: 1 },
      connect: () => connected.add('silence'),
      start: () => (silence.started = true),
      stop: () => (silence.stopped = true),
    }),
    createMediaStreamSource: (stream) => {
      const id = (stream as unknown as StandInStream).tracks[0]!.id;
      return {
        connect: () => connected.add(id),
        disconnect: () => connected.delete(id),
      };
    },
    resume: async () => undefined,
    close: async () => undefined,
  };
  return { context, connected: { has: (id: string) => connected.has(id), get size() { return [...connected].filter((id) => id !== 'silence').length; }, ids: () => [...connected].filter((id) => id !== 'silence').sort() }, output, silence, all: connected };
}

const track = (id: string) => new StandInTrack(id) as unknown as MediaStreamTrack;

describe('the sound of the recording', () => {
  beforeEach(() => {
    vi.stubGlobal('MediaStream', StandInStream);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('mixes the tracks it is given and follows people coming and going', () => {
    const { context, connected, output } = standInContext();
    const mix = createAudioMix(context);
    expect(mix.track).toBe(output);
    const [mine, sams, kims] = [track('mine'), track('sam'), track('kim')];
    mix.sync([mine, sams]);
    expect(connected.ids()).toEqual(['mine', 'sam']);
    mix.sync([mine, sams, kims]);
    expect(connected.ids()).toEqual(['kim', 'mine', 'sam']);
    mix.sync([mine, kims]);
    expect(connected.ids()).toEqual(['kim', 'mine']);
    expect(mix.size).toBe(2);
    mix.close();
    expect(connected.size).toBe(0);
    expect((output as unknown as StandInTrack).readyState).toBe('ended');
  });

  it('feeds the mix silence while nobody has a microphone, so the recorder always gets sound', () => {
    const { context, silence, all } = standInContext();
    const mix = createAudioMix(context);
    mix.sync([]);
    expect(all.has('silence')).toBe(true);
    expect(silence).toEqual({ started: true, stopped: false });
    mix.close();
    expect(silence.stopped).toBe(true);
  });

  it('keeps a muted microphone in the mix (a disabled track is silence) and drops an ended one', () => {
    const { context, connected } = standInContext();
    const mix = createAudioMix(context);
    const mine = new StandInTrack('mine');
    mix.sync([mine as unknown as MediaStreamTrack]);
    mine.enabled = false;
    mix.sync([mine as unknown as MediaStreamTrack]);
    expect(connected.ids()).toEqual(['mine']);
    mine.stop();
    mix.sync([mine as unknown as MediaStreamTrack]);
    expect(connected.size).toBe(0);
  });

  it("takes the local microphone and every peer's sound from the meeting", () => {
    const local = new StandInStream([new StandInTrack('mine'), new StandInTrack('camera', 'video')]);
    const peer = (id: string, tracks: StandInTrack[] | null) => ({ peerId: id, userStream: tracks && new StandInStream(tracks) }) as unknown as Peer;
    const ended = new StandInTrack('gone');
    ended.stop();
    const tracks = meetingAudioTracks({
      localStream: local as unknown as MediaStream,
      peers: { sam: peer('sam', [new StandInTrack('sam')]), kim: peer('kim', null), lee: peer('lee', [ended]) },
    });
    expect(tracks.map((candidate) => candidate.id)).toEqual(['mine', 'sam']);
  });
});
