// Chunks: each append is stored as its own object (S3 cannot append), `live/<id>/<offset, 15
// digits>-<random>`, and only then is the row's offset advanced, by a conditional update (`where
// size_bytes = offset`): of two appends racing at one offset, one wins and the other removes its own
// object and gets 409. The random part keeps the racers' objects apart, so the loser never removes
// the winner's bytes. The client that lost an answer asks liveStatus for the offset and resumes there;
// a chunk sent again at an old offset is 409 and changes nothing.
import { randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';
import { messages, validationMessages } from '@mooz/contract/messages';
import type { recordings } from '../../db/schema/index';
import { HttpError, invalidField } from '../../http/errors';
import type { LiveRecordingParts } from './live-parts';

/** The chunk objects of a recording live under this prefix. */
export const liveChunkPrefix = (recordingId: number) => `live/${recordingId}/`;
const offsetDigits = 15;
export const chunkKey = (recordingId: number, offset: number) =>
  `${liveChunkPrefix(recordingId)}${String(offset).padStart(offsetDigits, '0')}-${randomBytes(6).toString('hex')}`;
const offsetOfKey = (key: string) => Number(key.slice(key.lastIndexOf('/') + 1, key.lastIndexOf('/') + 1 + offsetDigits));

/** The Upload-Offset header: a whole number of bytes, nothing else. */
export function parseOffset(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) throw invalidField('upload-offset', validationMessages.uploadOffset);
  return Number(value.trim());
}

/** The mime type of a Content-Type header, without its parameters. */
export const mimeOf = (header: string | undefined) => (header ?? '').split(';')[0]!.trim().toLowerCase();

/** Fails the stream with a 413 once more than `max` bytes went through it. */
export function byteLimit(max: number) {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > max) return done(new HttpError(413, messages.recordingTooLarge));
      done(null, chunk);
    },
  });
}

/**
 * The chunks of a stopped recording, in order: one object per offset, from 0 to the offset held.
 * Objects left by an append that lost a race (removed by it, unless its process died first) are
 * told apart by their length: the chain's next chunk starts where this one ends.
 */
export async function chunkKeys(parts: Pick<LiveRecordingParts, 'storage' | 'log'>, row: Pick<typeof recordings.$inferSelect, 'id' | 'uploadOffset'>): Promise<string[]> {
  const byOffset = new Map<number, string[]>();
  for (const key of await parts.storage.list(liveChunkPrefix(row.id))) {
    const offset = offsetOfKey(key);
    if (!Number.isSafeInteger(offset) || offset >= row.uploadOffset) continue;
    byOffset.set(offset, [...(byOffset.get(offset) ?? []), key]);
  }
  const chain: string[] = [];
  for (let offset = 0; offset < row.uploadOffset; ) {
    const candidates = byOffset.get(offset);
    if (!candidates) {
      parts.log.error({ recordingId: row.id, offset }, 'a live recording lacks the chunk at this offset: keeping what comes before');
      break;
    }
    let chosen = candidates[0]!;
    let size = candidates.length === 1 ? null : 0;
    if (candidates.length > 1) {
      // Same length: the same chunk sent twice; either copy is the chunk.
      for (const key of candidates) {
        const length = (await parts.storage.size(key)) ?? 0;
        if (offset + length === row.uploadOffset || byOffset.has(offset + length)) {
          chosen = key;
          size = length;
          break;
        }
      }
    }
    chain.push(chosen);
    size ??= (await parts.storage.size(chosen)) ?? 0;
    if (size <= 0) break;
    offset += size;
  }
  return chain;
}
