// What a page before this one recorded but could not send — a reload mid-recording, a crash, a network
// that dropped with the tab — goes now: the chunks it kept in IndexedDB (./pending-chunks.ts),
// to the recording they belong to, from where the server stands, then the finish that says all was
// sent. Once per page load, for the signed-in user (app/signed-in.ts). A recording a tab is still
// making or sending is left to that tab: each holds a Web Lock named for its recording while it does.
import { readStoredUser } from '../../../lib/stored-auth';
import { createChunkUploader } from './chunk-uploader';
import { indexedDbChunkStore, pendingRecordings } from './pending-chunks';

const lockName = (recordingId: number) => `mooz-recording-${recordingId}`;
const locks = () => (typeof navigator !== 'undefined' ? navigator.locks : undefined);

/** Holds the recording's lock until the returned function is called (nothing, without Web Locks). */
export function holdRecordingLock(recordingId: number): () => void {
  const manager = locks();
  if (!manager) return () => undefined;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  void manager.request(lockName(recordingId), () => held).catch(() => undefined);
  return () => release();
}

/** Runs `work` holding the recording's lock; not at all when another tab holds it. */
async function unlessHeld(recordingId: number, work: () => Promise<void>): Promise<void> {
  const manager = locks();
  if (!manager) return work();
  await manager.request(lockName(recordingId), { ifAvailable: true }, async (lock) => {
    if (lock) await work();
  });
}

let sent: Promise<void> | null = null;

/** Sends the chunks earlier pages of this user left, recording by recording (once per page load). */
export function sendPendingRecordings(): Promise<void> {
  sent ??= (async () => {
    const user = readStoredUser();
    if (!user || typeof user.id !== 'number') return;
    const userId = user.id;
    const pendings = await pendingRecordings(userId);
    if (!pendings.length) return;
    // The transport, and the contract's schemas it brings, only when there is something to send.
    const { liveTransport } = await import('./live-transport');
    for (const pending of pendings) {
      await unlessHeld(pending.recordingId, async () => {
        const uploader = createChunkUploader({ transport: liveTransport(pending.roomId), store: indexedDbChunkStore(userId, pending.roomId) });
        try {
          await uploader.resume(pending.recordingId, pending.chunks);
        } catch (error) {
          // Taken no more (its chunks are forgotten), or the server out of reach: the next page load tries again.
          console.warn(`The rest of recording ${pending.recordingId} was not sent`, error);
          return;
        }
        await uploader.finish();
      });
    }
  })().catch((error: unknown) => console.warn('Sending the recording chunks kept by an earlier page failed', error));
  return sent;
}
