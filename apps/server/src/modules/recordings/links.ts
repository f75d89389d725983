// Playback links (contract: signed, expiring, at least an hour, no bearer token). For files the app
// server serves the bytes itself (media-route.ts) behind a link signed here; for a bucket the links are
// presigned GETs, so video bytes never pass through the app server.
//
// A link is apiRoutes.recordings.media (/recordings/:id/media/) ?expires=<unix seconds>&signature=<base64url HMAC-SHA256>
// (&download=1 for the attachment variant). The signature covers the id, the expiry and the variant,
// so none can be changed; its key is derived from the JWT secret with HKDF under a label of its own, so
// a link signature is never a token signature (nor any other HMAC of the secret) and vice versa.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { apiRoutes } from '@mooz/contract/api-routes';
import { pathOf } from '@mooz/contract/endpoint';
import { recordingLimits } from '@mooz/contract/recordings';

const recordingMediaPath = (id: number) => pathOf(apiRoutes.recordings.media, { id });

/**
 * What a signed link opens. Each purpose has a key of its own (an HKDF label of its own), so a link
 * signed for one purpose is never valid for another: an assignment file's link is not a recording's.
 */
type LinkPurpose = 'recording' | 'file';
const labels: Record<LinkPurpose, string> = { recording: 'recording playback link v1', file: 'assignment file link v1' };

const keys = new Map<string, Buffer>();

function linkKey(secret: string, purpose: LinkPurpose): Buffer {
  const cacheKey = `${purpose}\n${secret}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'mooz', labels[purpose], 32));
    keys.set(cacheKey, key);
  }
  return key;
}

/** The HMAC-SHA256 of `payload` under the purpose's key derived from the app's secret. */
export function linkSignature(secret: string, purpose: LinkPurpose, payload: string): Buffer {
  return createHmac('sha256', linkKey(secret, purpose)).update(payload).digest();
}

function signatureBytes(secret: string, id: number, expires: number, download: boolean): Buffer {
  return linkSignature(secret, 'recording', `${id}\n${expires}\n${download ? 'attachment' : 'inline'}`);
}

interface SignedLink {
  id: number;
  /** Unix seconds after which the link is refused. */
  expires: number;
  download: boolean;
}

/** The app-server link to a recording's bytes, signed with the app's secret. */
export function signedMediaUrl(secret: string, link: SignedLink): string {
  const signature = signatureBytes(secret, link.id, link.expires, link.download).toString('base64url');
  return `${recordingMediaPath(link.id)}?expires=${link.expires}&signature=${signature}${link.download ? '&download=1' : ''}`;
}

/**
 * Whether a request's query is a valid, unexpired link to recording `id`; null when it is missing,
 * malformed, tampered with, for another recording, or expired. The signature is compared in constant time.
 */
export function verifyMediaLink(
  secret: string,
  id: number,
  query: Record<string, unknown>,
  nowSeconds: number,
): { download: boolean; expires: number } | null {
  const { expires, signature, download } = query;
  if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) return null;
  if (typeof signature !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return null;
  // Only the exact variants signed: absent (inline) or 1 (attachment).
  if (download !== undefined && download !== '1') return null;
  const expiresAt = Number(expires);
  const expected = signatureBytes(secret, id, expiresAt, download === '1');
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (expiresAt <= nowSeconds) return null;
  return { download: download === '1', expires: expiresAt };
}

const extensions: Record<string, string> = { 'video/webm': '.webm', 'video/mp4': '.mp4', 'audio/webm': '.webm' };

/** A file name for a download: the title without what file systems refuse, and the type's extension. */
export function downloadFileName(title: string, id: number, mimeType: string): string {
  const base =
    title
      .normalize('NFC')
      // What Windows or a shell refuses in a file name, and control characters (C0, DEL, C1).
      .replace(/[<>:"/\\|?*]+/g, ' ')
      .replace(/\p{Cc}+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^\.+|\.+$/g, '')
      .slice(0, 120)
      .trim() || `recording-${id}`;
  return `${base}${extensions[mimeType.split(';')[0]!.trim().toLowerCase()] ?? ''}`;
}

interface PlaybackLinks {
  url: string;
  download_url: string;
  url_expires_at: string;
}

/**
 * The contract's `url`, `download_url` and `url_expires_at` of a recording, valid for
 * recordingLimits.linkTtlSeconds from `now`: presigned GETs from a bucket, or links to this server
 * signed with its secret. A recording not ready yet (storageKey null) gets app links, which answer 404
 * until it is.
 */
export async function playbackLinks(
  app: Pick<FastifyInstance, 'jwtSecret' | 'storage'>,
  recording: { id: number; storageKey: string | null; mimeType: string; title: string },
  now: Date = new Date(),
): Promise<PlaybackLinks> {
  const ttl = recordingLimits.linkTtlSeconds;
  // Whole seconds, so the expiry reported is the one in the link and the presigned URL.
  const signedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const expires = signedAt.getTime() / 1000 + ttl;
  const url_expires_at = new Date(expires * 1000).toISOString();
  if (recording.storageKey) {
    const options = { expiresInSeconds: ttl, contentType: recording.mimeType, signedAt };
    const url = await app.storage.presignedGet(recording.storageKey, options);
    if (url !== null) {
      const downloadName = downloadFileName(recording.title, recording.id, recording.mimeType);
      const download_url = (await app.storage.presignedGet(recording.storageKey, { ...options, downloadName }))!;
      return { url, download_url, url_expires_at };
    }
  }
  return {
    url: signedMediaUrl(app.jwtSecret, { id: recording.id, expires, download: false }),
    download_url: signedMediaUrl(app.jwtSecret, { id: recording.id, expires, download: true }),
    url_expires_at,
  };
}
