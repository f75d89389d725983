// GET /api/ice-servers/ with TURN: the TURN REST API credential each signed-in user gets,
// the relay-only policy, and the configuration that makes them; over HTTP on a real database.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@mooz/contract/messages';
import { buildTestApp, type TestApp } from '../../test/app';
import { loadConfig } from '../config';
import { person } from '../../test/realtime-clients';
import { turnCredential } from './turn-credentials';

const stun = { urls: 'stun:stun.example.test:3478' };
const turnEnv = {
  ICE_SERVERS: JSON.stringify([stun]),
  TURN_URLS: 'turn:turn.example.test:3478?transport=udp, turns:turn.example.test:443?transport=tcp',
  TURN_SECRET: 'coturn-static-auth-secret',
  TURN_TTL: '3600',
};

async function iceServers(t: TestApp, token?: string) {
  return t.app.inject({ method: 'GET', url: '/api/ice-servers/', headers: token ? { authorization: `Bearer ${token}` } : {} });
}

describe('GET /api/ice-servers/ with TURN_URLS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(turnEnv);
  });
  afterAll(() => t.close());

  it('gives a signed-in user the STUN servers, then the TURN URLs with a credential coturn accepts for TURN_TTL seconds', async () => {
    const alice = await person(t);
    const before = Math.floor(Date.now() / 1000);
    const res = await iceServers(t, alice.token);
    const after = Math.floor(Date.now() / 1000);
    expect(res.statusCode).toBe(200);
    const { data, ...rest } = res.json() as { data: { urls: string[]; username: string; credential: string }[] };
    expect(rest).toEqual({});
    expect(data[0]).toEqual(stun);
    const turn = data[1]!;
    expect(data).toHaveLength(2);
    expect(turn.urls).toEqual(['turn:turn.example.test:3478?transport=udp', 'turns:turn.example.test:443?transport=tcp']);
    // `<unix expiry>:<user id>`, expiring TURN_TTL after now.
    const [expiry, userId] = turn.username.split(':');
    expect(userId).toBe(String(alice.userId));
    expect(Number(expiry)).toBeGreaterThanOrEqual(before + 3600);
    expect(Number(expiry)).toBeLessThanOrEqual(after + 3600);
    // What coturn computes from its static-auth-secret.
    expect(turn.credential).toBe(createHmac('sha1', turnEnv.TURN_SECRET).update(turn.username).digest('base64'));
  });

  it('makes the credential as the TURN REST API scheme says (a vector from openssl)', () => {
    // printf '1700000000:42' | openssl dgst -sha1 -hmac north -binary | base64
    const made = turnCredential({ urls: ['turn:x'], secret: 'north', ttlSeconds: 600 }, 42, 1_699_999_400_000);
    expect(made).toEqual({ urls: ['turn:x'], username: '1700000000:42', credential: 'DWX3FI7DiPIpadEYQAZsnZBAagI=' });
  });

  it('gives each user a username and credential of their own', async () => {
    const [alice, bob] = [await person(t), await person(t, 'teacher')];
    const [a, b] = await Promise.all([iceServers(t, alice.token), iceServers(t, bob.token)]);
    const turnOf = (res: Awaited<ReturnType<typeof iceServers>>) => (res.json() as { data: { username: string; credential: string }[] }).data[1]!;
    expect(turnOf(a).username.endsWith(`:${alice.userId}`)).toBe(true);
    expect(turnOf(b).username.endsWith(`:${bob.userId}`)).toBe(true);
    expect(turnOf(a).username).not.toBe(turnOf(b).username);
    expect(turnOf(a).credential).not.toBe(turnOf(b).credential);
  });

  it('is kept by no cache, shared or not', async () => {
    const res = await iceServers(t, (await person(t)).token);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('is 401 in the error envelope without a token, or with one that is not valid', async () => {
    const none = await iceServers(t);
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ message: messages.noAccessToken });
    const forged = await iceServers(t, 'not-a-token');
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({ message: expect.any(String) });
    expect(forged.body).not.toContain('turn:');
  });

  it('says nothing of the policy when it is all', async () => {
    expect(Object.keys((await iceServers(t, (await person(t)).token)).json() as object)).toEqual(['data']);
  });
});

describe('GET /api/ice-servers/ with ICE_TRANSPORT_POLICY=relay', () => {
  it('carries ice_transport_policy: relay beside the servers', async () => {
    const t = await buildTestApp({ ...turnEnv, ICE_TRANSPORT_POLICY: 'relay' });
    try {
      const res = await iceServers(t, (await person(t)).token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: [stun, expect.objectContaining({ urls: expect.any(Array) })], ice_transport_policy: 'relay' });
    } finally {
      await t.close();
    }
  });
});

describe('TURN configuration', () => {
  it('defaults to no TURN, a credential life of 6 hours and every candidate allowed', () => {
    const config = loadConfig({});
    expect(config.turn).toBeNull();
    expect(config.iceTransportPolicy).toBe('all');
    expect(loadConfig({ TURN_URLS: 'turn:a:3478', TURN_SECRET: 's' }).turn).toEqual({ urls: ['turn:a:3478'], secret: 's', ttlSeconds: 21_600 });
  });

  it('stops the start on TURN_URLS without TURN_SECRET, naming it', () => {
    expect(() => loadConfig({ TURN_URLS: 'turn:a:3478' })).toThrow(/^Invalid TURN_SECRET: must be set when TURN_URLS is/);
  });

  it('stops on a URL that is not TURN, a bad TTL or policy, and on relay-only without any TURN server', () => {
    expect(() => loadConfig({ TURN_URLS: 'stun:a:3478', TURN_SECRET: 's' })).toThrow(/^Invalid TURN_URLS: /);
    expect(() => loadConfig({ TURN_URLS: ' , ', TURN_SECRET: 's' })).toThrow(/^Invalid TURN_URLS: /);
    expect(() => loadConfig({ TURN_URLS: 'turn:a', TURN_SECRET: 's', TURN_TTL: '0' })).toThrow(/^Invalid TURN_TTL: /);
    expect(() => loadConfig({ ICE_TRANSPORT_POLICY: 'none' })).toThrow(/^Invalid ICE_TRANSPORT_POLICY: /);
    expect(() => loadConfig({ ICE_TRANSPORT_POLICY: 'relay' })).toThrow(/^Invalid ICE_TRANSPORT_POLICY: relay needs a TURN server/);
    // A TURN server listed with static credentials in ICE_SERVERS is one.
    const listed = JSON.stringify([{ urls: ['turn:t:3478'], username: 'u', credential: 'p' }]);
    expect(loadConfig({ ICE_TRANSPORT_POLICY: 'relay', ICE_SERVERS: listed }).iceTransportPolicy).toBe('relay');
  });
});
