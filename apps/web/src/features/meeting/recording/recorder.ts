// Recording the meeting in this tab: the composed picture (./composer.ts) and the mixed sound
// (./audio-mix.ts) into a MediaRecorder, whose chunks go to the server as they come (./chunk-uploader.ts).
// It lives beside the meeting, not in a component: leaving the meeting page stops the recording, but the
// last chunks and the finish are still sent after the page is gone. One recording per tab. Each chunk is
// kept in IndexedDB until the server has it (./pending-chunks.ts): what a reload or a crash keeps this
// page from sending, the next page sends (./pending-upload.ts).
import i18n from 'i18next';
import { create } from 'zustand';
import { messages } from '@mooz/contract/messages';
import type { Room } from '@mooz/contract/realtime';
import { recordingLimits } from '@mooz/contract/recordings';
import { messageOf } from '../../../lib/api';
import { readStoredUser, type StoredUser } from '../../../lib/stored-auth';
import { useMeetingStore, type MeetingState } from '../meeting-store';
import { meetingToast } from '../services/meeting-toasts';
import { createAudioMix, meetingAudioTracks, type AudioMix } from './audio-mix';
import { createChunkUploader, type Backlog, type ChunkUploader } from './chunk-uploader';
import { createComposer, meetingTiles, recordingFps, type Composer } from './composer';
import { liveTransport } from './live-transport';
import { indexedDbChunkStore } from './pending-chunks';
import { holdRecordingLock } from './pending-upload';

type RecorderPhase = 'idle' | 'starting' | 'recording' | 'stopping';

interface RecorderState {
  phase: RecorderPhase;
  roomId: string | null;
  /** When the MediaRecorder started (ms since the epoch), for the elapsed time. */
  startedAt: number | null;
  /** What is recorded but not yet on the server. */
  backlog: Backlog;
}

const idle = (): RecorderState => ({ phase: 'idle', roomId: null, startedAt: null, backlog: { chunks: 0, bytes: 0 } });
export const useRecorderStore = create<RecorderState>()(idle);

/** MediaRecorder's WebM, VP8 and Opus first (what the server expects and every Chromium and Firefox writes). */
export const mimeTypeCandidates = ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8', 'video/webm'];

export function pickMimeType(supported: (type: string) => boolean): string | null {
  return mimeTypeCandidates.find((type) => supported(type)) ?? null;
}

/**
 * Who sees the Record button: the room's host (a session's teacher, an ad hoc room's creator) and
 * admins. The server decides anyway (startLive answers 403 to anyone else).
 */
export function canRecord(user: StoredUser | null, room: Room | null): boolean {
  if (!user || !room) return false;
  const admin = user.user_type === 'admin' || user.role === 'admin';
  return admin || (typeof user.id === 'number' && user.id === room.created_by);
}

/** The meeting is over for this tab (left, failed, or another room): a recording of it stops. */
const meetingOver = (state: MeetingState, roomId: string) =>
  state.roomId !== roomId || state.phase === 'left' || state.phase === 'failed' || state.phase === 'idle';

interface Session {
  roomId: string;
  uploader: ChunkUploader;
  composer: Composer;
  mix: AudioMix;
  recorder: MediaRecorder;
  release(): void;
  /** Lets another tab send what this one kept, once this one is done with it. */
  unlock(): void;
}

let session: Session | null = null;
/**
 * The longest the recording waits for the cameras' first frames before it starts (the button says
 * Starting meanwhile). Each camera gets a new video element of its own, and on a busy machine its first
 * frame can take more than a second and a half: the recording then opened on a placeholder's blue-grey
 * (e2e/recording-live.spec.ts failed so in CI and here at load 33). Usually they are there at once.
 */
const composerWarmUpMs = 4000;
const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options ?? {});

export async function startRecording(roomId: string): Promise<void> {
  if (useRecorderStore.getState().phase !== 'idle') return;
  const mimeType = typeof MediaRecorder === 'undefined' ? null : pickMimeType((type) => MediaRecorder.isTypeSupported(type));
  if (!mimeType) {
    meetingToast.error(t('meeting.recording.unsupported'));
    return;
  }
  useRecorderStore.setState({ ...idle(), phase: 'starting', roomId });
  // Made now, in the click, so the browser lets its sound run: after the answer it might not.
  const mix = createAudioMix();
  const user = readStoredUser();
  const uploader = createChunkUploader({
    transport: liveTransport(roomId),
    store: typeof user?.id === 'number' ? indexedDbChunkStore(user.id, roomId) : undefined,
    onBacklog: (backlog) => useRecorderStore.setState({ backlog }),
    onFatal: (error) => {
      meetingToast.error(t('meeting.recording.failed'), messageOf(error, messages.recordingNotLive));
      void stopRecording();
    },
  });
  let unlock = () => {};
  try {
    unlock = holdRecordingLock((await uploader.start()).id);
  } catch (error) {
    // 403 (not the host), 409 (already recorded), a lost connection: the server's words.
    mix.close();
    useRecorderStore.setState(idle());
    meetingToast.error(messageOf(error, messages.unexpected));
    return;
  }
  if (meetingOver(useMeetingStore.getState(), roomId)) {
    mix.close();
    useRecorderStore.setState(idle());
    await uploader.finish();
    unlock();
    return;
  }

  const composer = createComposer(() => meetingTiles(useMeetingStore.getState()), recordingFps);
  // The cameras' first frames, so the recording does not open on placeholders (a moment, at most).
  await composer.ready(composerWarmUpMs);
  if (meetingOver(useMeetingStore.getState(), roomId)) {
    composer.stop();
    mix.close();
    useRecorderStore.setState(idle());
    await uploader.finish();
    unlock();
    return;
  }
  mix.sync(meetingAudioTracks(useMeetingStore.getState()));
  // People come and go, microphones start: the mix follows; the end of the meeting ends the recording.
  const unsubscribe = useMeetingStore.subscribe((state) => {
    if (meetingOver(state, roomId)) return void stopRecording();
    mix.sync(meetingAudioTracks(state));
  });
  // A closing tab cannot wait for the last chunks: the server is told to finish with what it has.
  const onPageHide = () => uploader.finishOnUnload();
  window.addEventListener('pagehide', onPageHide);

  const recorder = new MediaRecorder(new MediaStream([...composer.stream.getVideoTracks(), mix.track]), {
    mimeType,
    videoBitsPerSecond: 2_500_000,
    audioBitsPerSecond: 128_000,
  });
  recorder.ondataavailable = (event) => uploader.push(event.data);
  recorder.onerror = () => void stopRecording();
  const current: Session = {
    roomId,
    uploader,
    composer,
    mix,
    recorder,
    unlock,
    release() {
      unsubscribe();
      window.removeEventListener('pagehide', onPageHide);
      composer.stop();
      mix.close();
    },
  };
  recorder.onstop = () => void finishSession(current);
  session = current;
  recorder.start(recordingLimits.chunkIntervalMs);
  useRecorderStore.setState({ phase: 'recording', startedAt: Date.now() });
}

/** Stops the MediaRecorder; its last chunk, the rest of the queue and the finish follow (finishSession). */
export async function stopRecording(): Promise<void> {
  const current = session;
  if (!current || useRecorderStore.getState().phase !== 'recording') return;
  useRecorderStore.setState({ phase: 'stopping' });
  if (current.recorder.state === 'inactive') void finishSession(current);
  else current.recorder.stop();
}

async function finishSession(current: Session) {
  if (session !== current) return;
  session = null;
  current.release();
  const failed = current.uploader.failure !== null;
  await current.uploader.finish();
  current.unlock();
  useRecorderStore.setState(idle());
  if (!failed && current.uploader.failure === null) meetingToast.medium(t('meeting.recording.saved'));
}
