// An answer a service hands to many callers unchanged (the catalogue as presented for a set of
// purchases, a sessions list for a scope): route() serialises it once, the first time it is sent, and
// sends the same bytes afterwards, instead of writing the same JSON again for every request (for the
// catalogue's 9 KB, serialising and measuring the string were a quarter of a request's CPU).
// The bytes are those the route's serializer writes (http/serializer.ts); a shared answer must not be
// changed once returned.

const shared = new WeakMap<object, Buffer | null>();

/** Marks `answer` as one that is never changed again, so that its serialised bytes can be kept. */
export function sharedAnswer<T extends object>(answer: T): T {
  if (!shared.has(answer)) shared.set(answer, null);
  return answer;
}

/** The bytes of a shared answer, serialised by `serialize` the first time; undefined for any other answer. */
export function sharedBytes(answer: unknown, serialize: (data: unknown) => string): Buffer | undefined {
  if (typeof answer !== 'object' || answer === null || !shared.has(answer)) return undefined;
  let bytes = shared.get(answer);
  if (!bytes) {
    bytes = Buffer.from(serialize(answer));
    shared.set(answer, bytes);
  }
  return bytes;
}
