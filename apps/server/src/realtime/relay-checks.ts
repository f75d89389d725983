// The checks of a relayed message (`request:send_mesage`), the one event a meeting sends by the
// thousand: the contract's shape (sendMessagePayload) and size limit (realtimeLimits.relayMaxBytes),
// decided as the zod schema and `Buffer.byteLength(JSON.stringify(data))` decide them, at a fraction
// of their cost for the messages meetings really send. Anything off the common path is handed to the
// schema and to JSON.stringify themselves, so the answers never differ (relay-checks.test.ts).
import { realtimeLimits, sendMessagePayload } from '@mooz/contract/realtime';

interface RelayMessage {
  to: string;
  roomId: string;
  data: Record<string, unknown>;
}

const MAX_ID = 128;

/** An object as JSON.parse makes one (socket.io's decoder): its prototype is Object.prototype. */
function jsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

// Characters whose JSON text is not the character itself, as one byte: quotes, backslashes and
// control characters are escaped, anything beyond ASCII takes two or more bytes of UTF-8.
// eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
const notPlainAscii = /[\u0000-\u001f"\\\u007f-\uffff]/;

/**
 * The payload when it has the schema's shape, else null; the same answer as
 * `sendMessagePayload.safeParse`. A plain payload (ids of the right length with nothing to trim, `data`
 * an ordinary object) is read directly; any other goes through the schema.
 */
export function readRelayMessage(payload: unknown): RelayMessage | null {
  if (jsonObject(payload)) {
    const { to, roomId, data } = payload;
    if (
      typeof to === 'string' &&
      to.length >= 1 &&
      to.length <= MAX_ID &&
      typeof roomId === 'string' &&
      roomId.length >= 1 &&
      roomId.length <= MAX_ID &&
      roomId.trim() === roomId &&
      jsonObject(data) &&
      // zod's record leaves out an own __proto__ key; let it.
      !Object.hasOwn(data, '__proto__')
    ) {
      return { to, roomId, data };
    }
  }
  const parsed = sendMessagePayload.safeParse(payload);
  return parsed.success ? parsed.data : null;
}

/**
 * At least as many bytes as `JSON.stringify(value)` takes as UTF-8, or Infinity beyond `budget` or for
 * a value it does not know (whose JSON the caller then measures exactly). Strings count 6 bytes a
 * character (a `\u0000` escape is the most one can take), or, with `ascii`, plain ASCII ones exactly.
 */
function jsonBytesAtMost(value: unknown, budget: number, depth: number, ascii: boolean): number {
  switch (typeof value) {
    case 'string':
      return ascii && !notPlainAscii.test(value) ? value.length + 2 : 6 * value.length + 2;
    case 'number':
      // The longest a number's JSON can be: -1.7976931348623157e+308.
      return 24;
    case 'boolean':
      return 5;
    case 'undefined':
      // "null" in an array; left out of an object (counted anyway: more is still a bound).
      return 4;
    case 'object': {
      if (value === null) return 4;
      if (depth > 32) return Infinity;
      let total = 2;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return Infinity;
        for (const item of value) {
          total += jsonBytesAtMost(item, budget - total, depth + 1, ascii) + 1;
          if (total > budget) return Infinity;
        }
        return total;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return Infinity;
      for (const key in value) {
        total += jsonBytesAtMost(key, budget, depth, ascii) + 1 + jsonBytesAtMost((value as Record<string, unknown>)[key], budget - total, depth + 1, ascii) + 1;
        if (total > budget) return Infinity;
      }
      return total;
    }
    default:
      return Infinity;
  }
}

/**
 * Whether `data` as JSON text is larger than the relay limit: `Buffer.byteLength(JSON.stringify(data))
 * > limit`, measured exactly only when a quick upper bound does not already settle it. The quickest
 * bound first, reading no string (a signal is a few hundred characters against a 64 KiB limit), then
 * one that reads them.
 */
export function relayTooLarge(data: Record<string, unknown>, limit: number = realtimeLimits.relayMaxBytes): boolean {
  if (jsonBytesAtMost(data, limit, 0, false) <= limit) return false;
  if (jsonBytesAtMost(data, limit, 0, true) <= limit) return false;
  return Buffer.byteLength(JSON.stringify(data)) > limit;
}
