// The one way the web app talks to /api: bearer token, the contract's envelope, and the spec's
// refresh rule: a 401 gets one refresh-and-retry per request; while a refresh runs, other 401s
// wait for it and retry with the new token; if it fails, every waiter is rejected and the session ends.
// A stored access token already expired is refreshed before the request, so none is sent to fail.
import { storageKeys } from '@mooz/contract/config';
import { messages } from '@mooz/contract/messages';
import type { TokenPairResponse } from './api-types';
import { apiRoutes } from '@mooz/contract/api-routes';
import { pathOf, type BodyInput, type Endpoint, type ParamsInput, type QueryInput, type ResponseOf } from '@mooz/contract/endpoint';
import type { endpoints } from '@mooz/contract/endpoints';
import { requestStarted } from './first-screen';
import { clearStoredAuth, tokenExpired } from './stored-auth';
import { readStorage, writeStorage } from './storage';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The server's response body, or null when there was none (network failure, guard). */
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get errors(): Record<string, string[]> | undefined {
    const errors = (this.data as { errors?: unknown } | null)?.errors;
    return errors && typeof errors === 'object' ? (errors as Record<string, string[]>) : undefined;
  }
}

interface ApiOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  formData?: FormData;
  /** Needs the access token (default). Without one the call fails before touching the network. */
  auth?: boolean;
  signal?: AbortSignal;
  /** Outlive the page (fetch keepalive): a report sent as the tab closes or reloads still arrives. */
  keepalive?: boolean;
  /** Upload progress from 0 to 1; switches the call to XMLHttpRequest, which reports it. */
  onUploadProgress?: (fraction: number) => void;
  /** Raw bytes sent as they are (a live recording's chunk), with `contentType`. */
  bytes?: Blob;
  contentType?: string;
  /** More request headers (a live recording's Upload-Offset). */
  headers?: Record<string, string>;
}

export interface Envelope<T> {
  data: T;
  message?: string;
}

interface RawResponse {
  status: number;
  body: unknown;
}

const baseUrl = (import.meta.env.VITE_API_URL as string | undefined) ?? '';

export const getAccessToken = () => readStorage(storageKeys.access);
export const getRefreshToken = () => readStorage(storageKeys.refresh);

function parse(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

async function sendWithFetch(path: string, options: ApiOptions, token: string | null): Promise<RawResponse> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.formData) body = options.formData;
  else if (options.bytes) {
    headers['Content-Type'] = options.contentType ?? 'application/octet-stream';
    body = options.bytes;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(baseUrl + path, { method: options.method ?? 'GET', headers, body, signal: options.signal, keepalive: options.keepalive });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(messages.connectionFailed, 0);
  }
  return { status: response.status, body: parse(await response.text()) };
}

function sendWithXhr(path: string, options: ApiOptions, token: string | null): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(options.method ?? 'POST', baseUrl + path);
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onUploadProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, body: parse(xhr.responseText) });
    xhr.onerror = () => reject(new ApiError(messages.connectionFailed, 0));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort());
    if (options.formData) xhr.send(options.formData);
    else if (options.body !== undefined) {
      xhr.setRequestHeader('Content-Type', 'application/json');
      xhr.send(JSON.stringify(options.body));
    } else xhr.send();
  });
}

const send = (path: string, options: ApiOptions, token: string | null) =>
  options.onUploadProgress ? sendWithXhr(path, options, token) : sendWithFetch(path, options, token);

function toError(raw: RawResponse): ApiError {
  const message = (raw.body as { message?: unknown } | null)?.message;
  return new ApiError(typeof message === 'string' ? message : messages.unexpected, raw.status, raw.body);
}

let refreshing: Promise<string> | null = null;

/** Rotates the tokens once for everyone who is waiting; a failure ends the session. */
export function refreshAccessToken(): Promise<string> {
  refreshing ??= (async () => {
    const refresh = getRefreshToken();
    if (!refresh) {
      clearStoredAuth();
      throw new ApiError(messages.noRefreshToken, 401);
    }
    const raw = await sendWithFetch(apiRoutes.auth.refresh.path, { method: 'POST', body: { refresh } }, null);
    const data = (raw.body as { data?: TokenPairResponse } | null)?.data;
    if (raw.status !== 200 || !data?.access) {
      clearStoredAuth();
      throw toError(raw);
    }
    writeStorage(storageKeys.access, data.access);
    // The server rotates refresh tokens; keep the old one only if it sent none.
    if (data.refresh) writeStorage(storageKeys.refresh, data.refresh);
    return data.access;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

export async function api<T>(path: string, options: ApiOptions = {}): Promise<Envelope<T>> {
  const answered = requestStarted();
  try {
    return await apiCall<T>(path, options);
  } finally {
    answered();
  }
}

async function apiCall<T>(path: string, options: ApiOptions): Promise<Envelope<T>> {
  const needsAuth = options.auth ?? true;
  let token = needsAuth ? getAccessToken() : null;
  if (needsAuth && !token) throw new ApiError(messages.noAccessToken, 401);
  // Every call that finds it expired waits for the same refresh; that is this request's one refresh.
  const refreshedFirst = Boolean(token && tokenExpired(token));
  if (refreshedFirst) token = await refreshAccessToken();

  let raw = await send(path, options, token);
  if (raw.status === 401 && needsAuth) {
    // Another request may have refreshed while this one was in flight: then just retry.
    const current = getAccessToken();
    const retryWith = current && current !== token ? current : refreshedFirst ? null : await refreshAccessToken();
    if (retryWith) raw = await send(path, options, retryWith);
  }
  if (raw.status < 200 || raw.status >= 300) throw toError(raw);
  return (raw.body ?? { data: null }) as Envelope<T>;
}

/** What a failed call leaves as the error: the server's response data, or else the message. */
export function errorOf(error: unknown): unknown {
  if (error instanceof ApiError) return error.data ?? error.message;
  return error instanceof Error ? error.message : error;
}

/** The message to show the user for a failed call, or `fallback` when the server sent none. */
export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.data && typeof (error.data as { message?: unknown }).message === 'string') {
    return (error.data as { message: string }).message;
  }
  if (error instanceof ApiError && error.status === 0) return error.message;
  if (error instanceof ApiError && (error.message === messages.noAccessToken || error.message === messages.noRefreshToken)) {
    return error.message;
  }
  return fallback;
}

type Declared = typeof endpoints;
/** Every declared endpoint, as one union. */
type AnyEndpoint = { [A in keyof Declared]: Declared[A] extends Endpoint ? Declared[A] : Declared[A][keyof Declared[A]] }[keyof Declared];
/** The declaration behind a route of `apiRoutes`. */
type EndpointAt<R extends Route> = Extract<AnyEndpoint, { method: R['method']; path: R['path'] }>;
type Route = { method: Endpoint['method']; path: Endpoint['path'] };

type Part<K extends string, T> = [T] extends [undefined] ? { [P in K]?: undefined } : { [P in K]: T };
type CallInput<E extends Endpoint> = Part<'params', ParamsInput<E>> &
  Part<'body', BodyInput<E>> & {
    query?: QueryInput<E>;
    signal?: AbortSignal;
    keepalive?: boolean;
    /** Send the access token (default); public endpoints such as login say false. */
    auth?: boolean;
    /** Another path for the same endpoint (the configurable create-order URL). */
    path?: string;
  };

function queryString(query: unknown): string {
  if (!query || typeof query !== 'object') return '';
  const entries = Object.entries(query as Record<string, unknown>).filter(([, value]) => value !== undefined && value !== null);
  return entries.length ? `?${new URLSearchParams(entries.map(([key, value]) => [key, String(value)])).toString()}` : '';
}

/**
 * Calls a declared endpoint: `call(apiRoutes.courses.one, { params: { id } })`. Its params, query and
 * body are typed by the contract's declaration, and so is what it answers.
 */
export function call<R extends Route>(route: R, input: CallInput<EndpointAt<R>> = {} as CallInput<EndpointAt<R>>): Promise<ResponseOf<EndpointAt<R>>> {
  const path = (input.path ?? pathOf(route, input.params as Record<string, string | number> | undefined)) + queryString(input.query);
  return api(path, { method: route.method, body: input.body, signal: input.signal, keepalive: input.keepalive, auth: input.auth }) as Promise<ResponseOf<EndpointAt<R>>>;
}
