// The ICE servers on the client: the relay-only policy kept from the server's answer, and
// TURN credentials renewed at 80% of their remaining life while a meeting watches them, read from the
// username's `<unix expiry>:` prefix. Against a stand-in of the API call and fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IceServersAnswer } from '@mooz/contract/realtime';

const api = vi.hoisted(() => ({ call: vi.fn<() => Promise<IceServersAnswer>>() }));
vi.mock('../../../lib/api', () => ({ call: api.call }));

type IceServersModule = typeof import('./ice-servers');
let ice: IceServersModule;

const HOUR = 3_600_000;
const stun = { urls: 'stun:stun.example.test:3478' };
/** The server's answer at `now` with a TURN credential that lives `ttlMs`. */
function answer(now: number, ttlMs: number, extra: Partial<IceServersAnswer> = {}): IceServersAnswer {
  const username = `${Math.floor((now + ttlMs) / 1000)}:7`;
  return { data: [stun, { urls: ['turn:turn.example.test:3478?transport=udp'], username, credential: `secret-of-${username}` }], ...extra };
}

beforeEach(async () => {
  vi.useFakeTimers({ now: new Date('2026-03-02T09:00:00Z') });
  api.call.mockReset();
  // Each test starts with nothing known and nobody watching.
  vi.resetModules();
  ice = await import('./ice-servers');
});

afterEach(() => {
  vi.useRealTimers();
});

describe('reading a TURN credential', () => {
  it('takes the earliest expiry from the usernames, and none from servers without one', () => {
    expect(ice.credentialExpiry([stun, { urls: 'turn:a', username: '1800000000:7', credential: 'x' }, { urls: 'turn:b', username: '1700000000:7', credential: 'y' }])).toBe(1_700_000_000_000);
    expect(ice.credentialExpiry([stun, { urls: 'turn:c', username: 'static-user', credential: 'z' }])).toBeNull();
  });

  it('renews at 80% of the remaining life, and never within a minute (a clock far ahead of the server)', () => {
    const now = Date.now();
    expect(ice.renewalTime(answer(now, 6 * HOUR).data, now)).toBe(now + 0.8 * 6 * HOUR);
    expect(ice.renewalTime(answer(now, -HOUR).data, now)).toBe(now + ice.RENEW_MIN_MS);
    expect(ice.renewalTime([stun], now)).toBeNull();
  });
});

describe('the policy', () => {
  it('is relay when the server says so, all otherwise', async () => {
    api.call.mockResolvedValueOnce(answer(Date.now(), 6 * HOUR, { ice_transport_policy: 'relay' }));
    expect(await ice.loadIceConfiguration()).toEqual({ iceServers: answer(Date.now(), 6 * HOUR).data, iceTransportPolicy: 'relay' });
    vi.resetModules();
    ice = await import('./ice-servers');
    api.call.mockResolvedValueOnce({ data: [stun] });
    expect(await ice.loadIceConfiguration()).toEqual({ iceServers: [stun], iceTransportPolicy: 'all' });
  });
});

describe('keeping the servers', () => {
  it('hands out what the lobby asked for, without asking again, until 80% of the credential’s life', async () => {
    api.call.mockResolvedValue(answer(Date.now(), 20 * 60_000));
    ice.prefetchIceServers();
    await vi.advanceTimersByTimeAsync(0);
    expect(ice.knownIceConfiguration()).toBeDefined();
    await ice.loadIceConfiguration();
    expect(api.call).toHaveBeenCalledTimes(1);
    // 10 minutes (the list's own keeping time) come before 16 (80% of 20).
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(ice.knownIceConfiguration()).toBeUndefined();
    await ice.loadIceConfiguration();
    expect(api.call).toHaveBeenCalledTimes(2);
  });

  it('does not hand out a credential past its renewal time', async () => {
    api.call.mockResolvedValue(answer(Date.now(), 5 * 60_000));
    await ice.loadIceConfiguration();
    await vi.advanceTimersByTimeAsync(4 * 60_000 + 1);
    expect(ice.knownIceConfiguration()).toBeUndefined();
  });
});

describe('renewing the servers while a meeting runs', () => {
  it('hands every watcher a new credential at 80% of the remaining life, again and again through a long class', async () => {
    const start = Date.now();
    api.call.mockImplementation(async () => answer(Date.now(), 6 * HOUR));
    const first = await ice.loadIceConfiguration();
    const seen: string[] = [];
    const stop = ice.watchIceConfiguration((renewed) => seen.push(renewed.iceServers[1]!.username!));

    await vi.advanceTimersByTimeAsync(0.8 * 6 * HOUR - 1000);
    expect(seen).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(seen).toHaveLength(1);
    // The new credential expires 6 h after it was made, later than the first.
    expect(Number(seen[0]!.split(':')[0])).toBe(Math.floor((start + 0.8 * 6 * HOUR + 6 * HOUR) / 1000));
    expect(seen[0]).not.toBe(first.iceServers[1]!.username);
    // A whole day: one renewal every 4.8 h, none missed, each credential still good when replaced.
    await vi.advanceTimersByTimeAsync(24 * HOUR - 0.8 * 6 * HOUR);
    expect(seen).toHaveLength(5);
    expect(ice.knownIceConfiguration()?.iceServers[1]!.username).toBe(seen.at(-1));
    stop();
  });

  it('tries a failed renewal again 30 s later', async () => {
    api.call.mockResolvedValueOnce(answer(Date.now(), HOUR));
    await ice.loadIceConfiguration();
    const seen = vi.fn();
    const stop = ice.watchIceConfiguration(seen);
    api.call.mockRejectedValueOnce(new Error('offline'));
    await vi.advanceTimersByTimeAsync(0.8 * HOUR);
    expect(api.call).toHaveBeenCalledTimes(2);
    expect(seen).not.toHaveBeenCalled();
    api.call.mockResolvedValueOnce(answer(Date.now(), HOUR));
    await vi.advanceTimersByTimeAsync(ice.RENEW_RETRY_MS);
    expect(api.call).toHaveBeenCalledTimes(3);
    expect(seen).toHaveBeenCalledTimes(1);
    stop();
  });

  it('stops renewing when the last watcher stops (the meeting ended), and never renews servers that do not expire', async () => {
    api.call.mockResolvedValue(answer(Date.now(), HOUR));
    await ice.loadIceConfiguration();
    const stopA = ice.watchIceConfiguration(() => undefined);
    const stopB = ice.watchIceConfiguration(() => undefined);
    stopA();
    await vi.advanceTimersByTimeAsync(0.8 * HOUR);
    expect(api.call).toHaveBeenCalledTimes(2);
    stopB();
    await vi.advanceTimersByTimeAsync(10 * HOUR);
    expect(api.call).toHaveBeenCalledTimes(2);

    vi.resetModules();
    ice = await import('./ice-servers');
    api.call.mockReset();
    api.call.mockResolvedValue({ data: [stun] });
    await ice.loadIceConfiguration();
    const stop = ice.watchIceConfiguration(() => undefined);
    await vi.advanceTimersByTimeAsync(10 * HOUR);
    expect(api.call).toHaveBeenCalledTimes(1);
    stop();
  });
});
