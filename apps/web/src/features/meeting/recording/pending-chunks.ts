// The recorder's chunks kept in IndexedDB until the server has them, so a stall, a reload or
// a crash loses nothing the browser had recorded: ./pending-upload.ts sends them from the next page.
// One record per chunk, keyed [recording id, where it starts]; each says whose recording (user, room)
// it is. Writes are queued one after another, so a chunk's removal never overtakes its keeping. When
// IndexedDB is missing or refuses (a private window, a full disk) the chunks live only in the page, as
// before: the recording goes on, it just cannot outlive the page.
import type { ChunkStore, PendingChunk } from './chunk-uploader';

const databaseName = 'mooz-recording-chunks';
const storeName = 'chunks';

interface ChunkRecord {
  recordingId: number;
  start: number;
  end: number;
  userId: number;
  roomId: string;
  blob: Blob;
}

/** The chunks a page left behind for one recording. */
interface PendingRecording {
  recordingId: number;
  roomId: string;
  chunks: PendingChunk[];
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

let opened: Promise<IDBDatabase | null> | null = null;
function database(): Promise<IDBDatabase | null> {
  opened ??= (async () => {
    if (typeof indexedDB === 'undefined') return null;
    const open = indexedDB.open(databaseName, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(storeName, { keyPath: ['recordingId', 'start'] });
    return request(open);
  })().catch((error: unknown) => {
    console.warn('Recording chunks cannot be kept in IndexedDB; they live only in this page', error);
    return null;
  });
  return opened;
}

/** The chunks of `recordingId`, as [recordingId, start] keys span them. */
const rangeOf = (recordingId: number) => IDBKeyRange.bound([recordingId, 0], [recordingId, Number.MAX_SAFE_INTEGER]);

/** A store for the chunks of `userId`'s recording of `roomId`. */
export function indexedDbChunkStore(userId: number, roomId: string): ChunkStore {
  let queue: Promise<unknown> = Promise.resolve();
  const run = (work: (db: IDBDatabase) => Promise<unknown>) => {
    queue = queue
      .then(database)
      .then((db) => db && work(db))
      .catch((error: unknown) => console.warn('Keeping a recording chunk in IndexedDB failed', error));
  };
  return {
    keep(recordingId, start, blob) {
      run(async (db) => {
        const tx = db.transaction(storeName, 'readwrite');
        const record: ChunkRecord = { recordingId, start, end: start + blob.size, userId, roomId, blob };
        tx.objectStore(storeName).put(record);
        await done(tx);
      });
    },
    confirmed(recordingId, offset) {
      run(async (db) => {
        const tx = db.transaction(storeName, 'readwrite');
        const store = tx.objectStore(storeName);
        const records = (await request(store.getAll(rangeOf(recordingId)))) as ChunkRecord[];
        for (const record of records) if (record.end <= offset) store.delete([record.recordingId, record.start]);
        await done(tx);
      });
    },
    forget(recordingId) {
      run(async (db) => {
        const tx = db.transaction(storeName, 'readwrite');
        tx.objectStore(storeName).delete(rangeOf(recordingId));
        await done(tx);
      });
    },
  };
}

/** The recordings of `userId` whose chunks a page left behind, each with its chunks in order. */
export async function pendingRecordings(userId: number): Promise<PendingRecording[]> {
  const db = await database();
  if (!db) return [];
  try {
    const tx = db.transaction(storeName, 'readonly');
    const records = (await request(tx.objectStore(storeName).getAll())) as ChunkRecord[];
    const byRecording = new Map<number, PendingRecording>();
    for (const record of records) {
      if (record.userId !== userId) continue;
      const entry = byRecording.get(record.recordingId) ?? { recordingId: record.recordingId, roomId: record.roomId, chunks: [] };
      entry.chunks.push({ start: record.start, blob: record.blob });
      byRecording.set(record.recordingId, entry);
    }
    for (const entry of byRecording.values()) entry.chunks.sort((a, b) => a.start - b.start);
    return [...byRecording.values()];
  } catch (error) {
    console.warn('Reading the recording chunks kept in IndexedDB failed', error);
    return [];
  }
}
