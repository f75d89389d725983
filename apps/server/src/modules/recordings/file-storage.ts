// Recording bytes as files under DATA_DIR/recordings (the default storage): a key `live/42/0001` is the
// file DATA_DIR/recordings/live/42/0001. Enough for one server process, or several on one machine.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { NoSuchKeyError, checkKey, checkPrefix, guardedWriter, type Storage } from './storage';

/** How much a patchable write gathers before writing it (one writev). */
const fileWriteBatch = 1024 * 1024;

export function createFileStorage(dataDir: string): Storage {
  const root = path.join(path.resolve(dataDir), 'recordings');

  /** The file of a key; checkKey already keeps it inside root, and this says so once more. */
  function fileOf(key: string): string {
    const file = path.join(root, ...checkKey(key).split('/'));
    if (!file.startsWith(root + path.sep)) throw new Error(`Not a valid recording storage key: ${JSON.stringify(key)}`);
    return file;
  }

  /** The directory a prefix points into, and what the names in it must start with. */
  function prefixParts(prefix: string): { dir: string; start: string; keyDir: string } {
    checkPrefix(prefix);
    const cut = prefix.lastIndexOf('/');
    const keyDir = prefix.slice(0, cut + 1);
    return { dir: path.join(root, ...keyDir.split('/').filter(Boolean)), start: prefix.slice(cut + 1), keyDir };
  }

  async function walk(dir: string, keyDir: string, into: string[]): Promise<void> {
    for (const entry of await entriesOf(dir)) {
      // Names starting with '.' are puts in progress (no key may start with '.').
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) await walk(path.join(dir, entry.name), `${keyDir}${entry.name}/`, into);
      else if (entry.isFile()) into.push(`${keyDir}${entry.name}`);
    }
  }

  return {
    kind: 'file',

    async put(key, body, _contentType) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // A temporary file beside the final one, renamed over it when complete: a reader never sees half
      // an object, and the rename cannot cross file systems.
      const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.part`);
      const out = createWriteStream(temp, { flags: 'wx', flush: true });
      try {
        // pipeline destroys both streams and rejects when the body errors or closes before its end.
        await pipeline(body, out);
        await rename(temp, file);
        return { sizeBytes: out.bytesWritten };
      } catch (error) {
        await unlink(temp).catch(() => {});
        throw error;
      }
    },

    async putPatchable(key, _contentType, { headBytes }) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // As put does: a temporary file beside the final one, renamed over it once complete and flushed.
      const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.part`);
      const handle = await open(temp, 'wx');
      // Writes gathered into one writev of about 1 MiB: fewer system calls than one per network chunk.
      let queued: Buffer[] = [];
      let queuedBytes = 0;
      let sizeBytes = 0;
      // The batch on its way to disk. The next one is gathered meanwhile, so that the file's write
      // overlaps reading and checking the next megabyte instead of pausing them (the upload went at
      // the speed of both one after the other). It has a handler from the start, so a failure waits
      // for the next write, patchHead or finish to report it rather than going unhandled.
      let writing: Promise<void> | null = null;

      /** Waits for the batch on its way, and rethrows its failure. */
      async function written() {
        const pending = writing;
        writing = null;
        if (pending) await pending;
      }
      /** Everything written so far on disk: the batch on its way, then what is gathered. */
      async function flushAll() {
        await written();
        await flushQueue();
      }
      async function flushQueue() {
        const buffers = queued;
        queued = [];
        queuedBytes = 0;
        while (buffers.length) {
          let { bytesWritten } = await handle.writev(buffers);
          // A short write (rare on a file) goes on from where it stopped.
          while (buffers.length && bytesWritten >= buffers[0]!.length) bytesWritten -= buffers.shift()!.length;
          if (bytesWritten > 0) buffers[0] = buffers[0]!.subarray(bytesWritten);
        }
      }
      return guardedWriter({
        async write(bytes) {
          queued.push(bytes);
          queuedBytes += bytes.length;
          sizeBytes += bytes.length;
          if (queuedBytes < fileWriteBatch) return;
          // At most one batch in flight, written in order: the one before must be on disk first.
          await written();
          writing = flushQueue();
          writing.catch(() => {});
        },
        async patchHead(bytes) {
          if (bytes.length > headBytes || bytes.length > sizeBytes) throw new RangeError(`A head of ${bytes.length} bytes does not fit the ${Math.min(headBytes, sizeBytes)} reserved`);
          await flushAll();
          // pwrite at 0: the rest of the file stays as it is.
          let at = 0;
          while (at < bytes.length) at += (await handle.write(bytes, at, bytes.length - at, at)).bytesWritten;
        },
        async finish() {
          await flushAll();
          await handle.sync();
          await handle.close();
          await rename(temp, file);
          return { sizeBytes };
        },
        async discard() {
          queued = [];
          await written().catch(() => {});
          await handle.close().catch(() => {});
          await unlink(temp).catch(() => {});
        },
      });
    },

    async read(key, range) {
      const file = fileOf(key);
      if (range) checkRange(range);
      // Opened first, so a missing key rejects here rather than as an error event on the stream.
      const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'ENOENT' || error.code === 'EISDIR' ? new NoSuchKeyError(key) : error;
      });
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },

    async size(key) {
      try {
        const info = await stat(fileOf(key));
        return info.isFile() ? info.size : null;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },

    async delete(key) {
      await unlink(fileOf(key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    },

    async list(prefix) {
      const { dir, start, keyDir } = prefixParts(prefix);
      const keys: string[] = [];
      for (const entry of await entriesOf(dir)) {
        if (entry.name.startsWith('.') || !entry.name.startsWith(start)) continue;
        if (entry.isDirectory()) await walk(path.join(dir, entry.name), `${keyDir}${entry.name}/`, keys);
        else if (entry.isFile()) keys.push(`${keyDir}${entry.name}`);
      }
      return keys.sort(byteOrder);
    },

    async deletePrefix(prefix) {
      if (prefix === '') throw new Error('Refusing to delete every recording object');
      const { dir, start } = prefixParts(prefix);
      for (const entry of await entriesOf(dir)) {
        if (entry.name.startsWith('.') || !entry.name.startsWith(start)) continue;
        await rm(path.join(dir, entry.name), { recursive: true, force: true });
      }
      // A prefix ending in '/' names a directory: it goes too, unless a put into it is under way.
      if (start === '' && dir !== root) await rmdir(dir).catch(() => {});
    },

    async presignedGet() {
      // The app server streams files itself, behind a signed link (links.ts).
      return null;
    },

    async close() {},
  };
}

async function entriesOf(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw error;
  }
}

export function checkRange(range: { start: number; end: number }): void {
  if (!Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.end) || range.start < 0 || range.end < range.start) {
    throw new RangeError(`Not a byte range: ${range.start}-${range.end}`);
  }
}

/** S3 lists keys in the byte order of their UTF-8; JavaScript's sort compares UTF-16 units. */
export function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
