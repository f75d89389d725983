import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storageKeys } from '@mooz/contract/config';
import { api, ApiError, refreshAccessToken } from './api';

// The network is the only thing replaced here: a tiny in-test server that answers like the API.
interface Call {
  url: string;
  authorization: string | null;
  body: unknown;
}

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

let calls: Call[];
let refreshWorks: boolean;

/** A token shaped like the server's: a JWT whose payload says when it expires (the signature is not read). */
const base64url = (value: object) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwtExpiringIn = (seconds: number) =>
  `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ sub: '1', exp: Math.floor(Date.now() / 1000) + seconds })}.signature`;
const validToken = jwtExpiringIn(15 * 60);

/** A server that refreshes the token, then refuses the new one as it did the old. */
function refusesEveryToken() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push({ url, authorization: null, body: null });
      if (url.endsWith('/token/refresh/')) return jsonResponse(200, { data: { access: 'still-bad', refresh: 'r' } });
      return jsonResponse(401, { message: 'nope' });
    }),
  );
}

beforeEach(() => {
  calls = [];
  refreshWorks = true;
  localStorage.clear();
  localStorage.setItem(storageKeys.access, 'old-access');
  localStorage.setItem(storageKeys.refresh, 'refresh-1');
  localStorage.setItem(storageKeys.user, JSON.stringify({ id: 1, role: 'student', ability: [] }));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const headers = new Headers(init.headers);
      calls.push({ url, authorization: headers.get('authorization'), body: init.body ? JSON.parse(String(init.body)) : null });
      if (url.endsWith('/api/auth/token/refresh/')) {
        // Slow enough that all five 401s arrive while it runs.
        await new Promise((r) => setTimeout(r, 20));
        return refreshWorks
          ? jsonResponse(200, { data: { access: 'new-access', refresh: 'refresh-2' } })
          : jsonResponse(401, { message: 'Your session has expired. Please log in again.' });
      }
      if (['Bearer new-access', `Bearer ${validToken}`].includes(headers.get('authorization') ?? '')) return jsonResponse(200, { data: { ok: true } });
      return jsonResponse(401, { message: 'Your session has expired. Please log in again.' });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const refreshCalls = () => calls.filter((c) => c.url.endsWith('/token/refresh/'));

describe('the API client', () => {
  it('refreshes exactly once when five parallel requests all get 401, and retries all five', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => api<{ ok: boolean }>(`/api/courses/?n=${i}`)));
    expect(results.every((r) => r.data.ok)).toBe(true);
    expect(refreshCalls()).toHaveLength(1);
    expect(refreshCalls()[0]!.body).toEqual({ refresh: 'refresh-1' });
    expect(calls.filter((c) => c.authorization === 'Bearer new-access')).toHaveLength(5);
    expect(localStorage.getItem(storageKeys.access)).toBe('new-access');
    expect(localStorage.getItem(storageKeys.refresh)).toBe('refresh-2');
  });

  it('rejects all five and logs out when the refresh fails', async () => {
    refreshWorks = false;
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => api('/api/courses/')));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(refreshCalls()).toHaveLength(1);
    expect(localStorage.getItem(storageKeys.access)).toBeNull();
    expect(localStorage.getItem(storageKeys.refresh)).toBeNull();
    expect(localStorage.getItem(storageKeys.user)).toBeNull();
  });

  it('retries a request only once: a second 401 is the caller’s error', async () => {
    refusesEveryToken();
    await expect(api('/api/courses/')).rejects.toMatchObject({ status: 401, message: 'nope' });
    expect(calls).toHaveLength(3);
  });

  it('refreshes first when the stored access token has expired: five parallel calls, one refresh, none sent with it', async () => {
    const expired = jwtExpiringIn(-60);
    localStorage.setItem(storageKeys.access, expired);
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => api<{ ok: boolean }>(`/api/courses/?n=${i}`)));
    expect(results.every((r) => r.data.ok)).toBe(true);
    expect(calls.filter((c) => c.authorization === `Bearer ${expired}`)).toHaveLength(0);
    expect(refreshCalls()).toHaveLength(1);
    expect(calls[0]!.url).toMatch(/\/token\/refresh\/$/);
    expect(calls.filter((c) => c.authorization === 'Bearer new-access')).toHaveLength(5);
    expect(calls).toHaveLength(6);
  });

  it('counts a token within ten seconds of its end as expired, and sends one still valid as it is', async () => {
    localStorage.setItem(storageKeys.access, jwtExpiringIn(5));
    await api('/api/courses/');
    expect(refreshCalls()).toHaveLength(1);
    expect(calls.map((c) => c.authorization)).toEqual([null, 'Bearer new-access']);

    calls = [];
    localStorage.setItem(storageKeys.access, validToken);
    await api('/api/courses/');
    expect(calls.map((c) => c.authorization)).toEqual([`Bearer ${validToken}`]);
  });

  it('refreshes only once for a request whose token had expired, even if the new one is refused', async () => {
    localStorage.setItem(storageKeys.access, jwtExpiringIn(-60));
    refusesEveryToken();
    await expect(api('/api/courses/')).rejects.toMatchObject({ status: 401, message: 'nope' });
    expect(refreshCalls()).toHaveLength(1);
    expect(calls).toHaveLength(2);
  });

  it('fails with "No access token found" without touching the network', async () => {
    localStorage.removeItem(storageKeys.access);
    await expect(api('/api/courses/')).rejects.toThrow('No access token found');
    expect(calls).toHaveLength(0);
  });

  it('fails a refresh with "No refresh token found" without touching the network', async () => {
    localStorage.removeItem(storageKeys.refresh);
    await expect(refreshAccessToken()).rejects.toThrow('No refresh token found');
    expect(calls).toHaveLength(0);
  });

  it('keeps the server response data on failure so the user sees the server message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse(409, { message: 'An account with this email already exists', errors: { email: ['taken'] } })));
    const error = await api('/api/auth/register/', { method: 'POST', body: {}, auth: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('An account with this email already exists');
    expect((error as ApiError).errors).toEqual({ email: ['taken'] });
  });
});
