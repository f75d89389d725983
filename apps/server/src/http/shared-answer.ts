// An answer a service hands to many callers unchanged (the catalogue as presented for a set of
// purchases, a sessions list for a scope): route() serialises it once, the first time it is sent, and
// sends the same bytes afterwards, instead of writing the same JSON again for every request:
// serialising a large answer is a large part of what a request costs.
// The bytes are those the route's serializer writes (http/serializer.ts); a shared answer must not be
// changed once returned.
//
// A caller that accepts Brotli or gzip (every browser) gets those bytes compressed, once per answer
// and encoding: a JSON list shrinks several times over, which is less for a phone to download and less
// for the server to write to the socket.
// Nothing in a shared answer comes from the request, so compressing it gives a reader of the
// compressed size nothing to guess at (BREACH needs a secret and the attacker's text in one answer).
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import { remembered } from '../infrastructure/remembered';

type Encoding = 'br' | 'gzip';

/** Below this many bytes an answer goes as it is: compressing it would save less than a packet. */
export const COMPRESS_FROM_BYTES = 1024;

// Brotli 6: nearly as small as its best quality on JSON this size, at a small part of the time.
const compressors: Record<Encoding, (bytes: Buffer) => Buffer> = {
  br: (bytes) =>
    brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: 6,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  gzip: (bytes) => gzipSync(bytes, { level: 6 }),
};

// Brotli first where a client weighs both alike.
const supported: Encoding[] = ['br', 'gzip'];

// Browsers send a handful of Accept-Encoding values, each on every request: each is read once (parsing
// the header again on every request showed in profiles). What clients send is theirs to vary, so only
// short values are remembered, and a bounded number of them.
const negotiated = (header: string) => (negotiate(header, supported) as Encoding | null) || undefined;
const rememberedChoice = remembered(64, negotiated);
const keptHeaderMaxLength = 128;

/** The encoding to send a compressible answer in, for a request's Accept-Encoding; undefined for none. */
export function chosenEncoding(acceptEncoding: string | string[] | undefined): Encoding | undefined {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding;
  if (!header) return undefined;
  return header.length <= keptHeaderMaxLength ? rememberedChoice(header) : negotiated(header);
}

type Kept = { json: Buffer; br?: Buffer; gzip?: Buffer };

const shared = new WeakMap<object, Kept | null>();

/** Marks `answer` as one that is never changed again, so that its serialised bytes can be kept. */
export function sharedAnswer<T extends object>(answer: T): T {
  if (!shared.has(answer)) shared.set(answer, null);
  return answer;
}

/**
 * The bytes to send a shared answer as, for a caller accepting `encoding`: its JSON, serialised by
 * `serialize` the first time, or that compressed (once) where it is worth it. Undefined for any answer
 * not marked shared.
 */
export function sharedBytes(
  answer: unknown,
  serialize: (data: unknown) => string,
  encoding?: Encoding,
): { body: Buffer; encoding?: Encoding } | undefined {
  if (typeof answer !== 'object' || answer === null || !shared.has(answer)) return undefined;
  let kept = shared.get(answer);
  if (!kept) {
    kept = { json: Buffer.from(serialize(answer)) };
    shared.set(answer, kept);
  }
  if (!encoding || kept.json.length < COMPRESS_FROM_BYTES) return { body: kept.json };
  return { body: (kept[encoding] ??= compressors[encoding](kept.json)), encoding };
}
