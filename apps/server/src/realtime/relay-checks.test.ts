// The relay's quick checks answer exactly as the contract's schema and the exact JSON size would.
import { describe, expect, it } from 'vitest';
import { realtimeLimits, sendMessagePayload } from '@mooz/contract/realtime';
import { readRelayMessage, relayTooLarge } from './relay-checks';

const exactlyTooLarge = (data: unknown, limit: number) => Buffer.byteLength(JSON.stringify(data)) > limit;

describe('readRelayMessage', () => {
  const candidate = { sdpSignal: { candidate: { candidate: 'candidate:1 1 udp 2122194687 192.0.2.1 40000 typ host', sdpMid: '0', sdpMLineIndex: 0 } } };
  const payloads: unknown[] = [
    { to: 'peer-b', roomId: 'room-1', data: candidate },
    // As socket.io's decoder makes them.
    JSON.parse(JSON.stringify({ to: 'peer-b', roomId: 'room-1', data: candidate, extra: true })),
    { to: 'peer-b', roomId: '  room-1 ', data: {} },
    { to: 'peer-b', roomId: '\u00a0room-1', data: {} },
    { to: 'peer-b', roomId: '   ', data: {} },
    { to: '', roomId: 'room-1', data: {} },
    { to: 'x'.repeat(128), roomId: 'r'.repeat(128), data: {} },
    { to: 'x'.repeat(129), roomId: 'room-1', data: {} },
    { to: 'peer-b', roomId: 'r'.repeat(129), data: {} },
    { to: 7, roomId: 'room-1', data: {} },
    { to: 'peer-b', roomId: null, data: {} },
    { to: 'peer-b', roomId: 'room-1' },
    { to: 'peer-b', roomId: 'room-1', data: null },
    { to: 'peer-b', roomId: 'room-1', data: [] },
    { to: 'peer-b', roomId: 'room-1', data: 'text' },
    { to: 'peer-b', roomId: 'room-1', data: new Date(0) },
    { to: 'peer-b', roomId: 'room-1', data: Buffer.from('binary') },
    { to: 'peer-b', roomId: 'room-1', data: Object.create(null) },
    { to: 'peer-b', roomId: 'room-1', data: JSON.parse('{"__proto__": {"polluted": true}, "kept": 1}') },
    [],
    null,
    'request',
    Object.assign(Object.create(null), { to: 'peer-b', roomId: 'room-1', data: {} }),
  ];

  it.each(payloads.map((payload, i) => [i, payload]))('gives the schema’s answer for payload %i', (_i, payload) => {
    const schema = sendMessagePayload.safeParse(payload);
    const quick = readRelayMessage(payload);
    if (!schema.success) expect(quick).toBeNull();
    else {
      expect(quick).not.toBeNull();
      expect(quick!.to).toBe(schema.data.to);
      expect(quick!.roomId).toBe(schema.data.roomId);
      // The same data as the schema's copy (its JSON: what the recipient receives).
      expect(JSON.stringify(quick!.data)).toBe(JSON.stringify(schema.data.data));
    }
  });
});

describe('relayTooLarge', () => {
  const limit = 1000;
  // Around the limit in every kind of content: ASCII, escapes, control characters, two-, three- and
  // four-byte UTF-8, lone surrogates, numbers, nesting, arrays with holes and undefined.
  const pieces = ['a', '"', '\\', '\n', '\u0001', 'é', '€', '😀', '\ud800', '\u007f'];
  const cases: unknown[] = [];
  for (const piece of pieces) {
    for (const n of [1, 10, 100, 150, 160, 300, 330, 400, 499, 500, 990, 1000, 1001]) {
      cases.push({ s: piece.repeat(n) });
      cases.push({ [piece.repeat(Math.ceil(n / 2))]: [piece.repeat(Math.floor(n / 2)), 1.5e-300, null, true] });
    }
  }
  cases.push({ n: Array.from({ length: 60 }, () => -1.7976931348623157e308) });
  cases.push({ list: [undefined, , 3] }); // eslint-disable-line no-sparse-arrays
  cases.push({ left: undefined, out: () => 1 });
  cases.push({ date: new Date(0), bin: Buffer.alloc(300) });
  cases.push({ deep: JSON.parse('['.repeat(100) + ']'.repeat(100)) });
  cases.push(JSON.parse(`{"big":${'1'.repeat(400)}}`));

  it.each(cases.map((data, i) => [i, data]))('agrees with the exact JSON size for case %i', (_i, data) => {
    expect(relayTooLarge(data as Record<string, unknown>, limit)).toBe(exactlyTooLarge(data, limit));
  });

  it('takes the contract’s limit by default', () => {
    const under = { s: 'a'.repeat(realtimeLimits.relayMaxBytes - 8) };
    const over = { s: 'a'.repeat(realtimeLimits.relayMaxBytes) };
    expect(Buffer.byteLength(JSON.stringify(under))).toBe(realtimeLimits.relayMaxBytes);
    expect(relayTooLarge(under)).toBe(false);
    expect(relayTooLarge(over)).toBe(true);
  });
});
