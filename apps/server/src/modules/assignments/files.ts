// Assignment files: an assignment's attachment and a student's answer file. Each is checked by its
// bytes (never by its name or the browser's type) to be one of assignmentFileKinds, streamed into the
// object storage under `assignments/` without being held in memory, and handed out as a signed,
// expiring link to apiRoutes.assignments.file, which serves it as a download that cannot run in this
// origin: attachment, its sniffed type, nosniff, and a sandboxing Content-Security-Policy.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { sql } from 'drizzle-orm';
import { apiRoutes } from '@mooz/contract/api-routes';
import { pathOf } from '@mooz/contract/endpoint';
import { errorEnvelope } from '@mooz/contract/envelope';
import { messages } from '@mooz/contract/messages';
import type { AttachedFile } from '@mooz/contract/assignments';
import { assignmentFileKinds } from '@mooz/contract/assignments';
import { attachment } from '../../infrastructure/csv';
import { HttpError, forbidden, notFound } from '../../http/errors';
import { checkedUpload } from '../../http/checked-upload';
import { linkSignature, NoSuchKeyError, type Storage } from '../recordings';

type FileKind = (typeof assignmentFileKinds)[number];

/** Storage keys of assignment files: `assignments/<uuid>`; the link names the uuid alone. */
const filePrefix = 'assignments/';
/** How long a file link stays valid (a page showing it is refetched long before). */
export const fileLinkTtlSeconds = 60 * 60;

const startsWith = (bytes: Buffer, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Control characters a text file may not hold (tab, line feed, vertical tab, form feed and carriage return are fine). */
// eslint-disable-next-line no-control-regex
const textControls = /[\u0000-\u0008\u000E-\u001F\u007F]/;

/**
 * What the first bytes say the file is: a binary kind by its signature, else text when they are UTF-8
 * without control characters (checkedUpload holds the rest of a text file to the same rule). Null:
 * none of the kinds (an empty file included).
 */
export function sniffKind(head: Buffer): FileKind | null {
  if (head.length === 0) return null;
  if (startsWith(head, ascii('%PDF-'))) return 'pdf';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'gif';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'webp';
  // A ZIP's local file header, or the end record of an empty archive: DOCX, XLSX, PPTX and ODF are ZIPs.
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    // stream: a character cut at the end of the head is not an error.
    return textControls.test(decoder.decode(head, { stream: true })) ? null : 'text';
  } catch {
    return null;
  }
}

const officeTypes: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  zip: 'application/zip',
};
const kindTypes: Record<Exclude<FileKind, 'zip'>, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  text: 'text/plain; charset=utf-8',
};
/** The extensions a file of each kind may keep; the first is given to one whose name says otherwise. */
const kindExtensions: Record<FileKind, string[]> = {
  pdf: ['pdf'],
  png: ['png'],
  jpeg: ['jpg', 'jpeg'],
  gif: ['gif'],
  webp: ['webp'],
  zip: ['zip', ...Object.keys(officeTypes).filter((e) => e !== 'zip')],
  text: ['txt', 'md', 'csv', 'tsv', 'log'],
};

/**
 * The name the file is stored and downloaded under: the uploader's, without what file systems refuse,
 * with an extension its kind allows (a PNG named .pdf becomes .png; a text file named .html, .txt).
 */
export function storedFileName(original: string, kind: FileKind): string {
  let base =
    original
      .normalize('NFC')
      .replace(/[<>:"/\\|?*]+/g, ' ')
      .replace(/\p{Cc}+/gu, ' ')
      .replace(/\s+/g, ' ')
      .replace(/^[.\s]+|[.\s]+$/g, '') || 'file';
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  const allowed = kindExtensions[kind];
  if (dot > 0 && allowed.includes(extension)) return `${base.slice(0, dot).slice(0, 120).trim() || 'file'}.${extension}`;
  // A short extension-like ending is replaced, anything else kept as part of the name.
  if (dot > 0 && /^[a-z0-9]{1,8}$/.test(extension)) base = base.slice(0, dot).trim() || 'file';
  return `${base.slice(0, 120).trim() || 'file'}.${allowed[0]}`;
}

/** The Content-Type a file of this kind and name is served with (a ZIP named .docx is a Word document). */
export function fileMimeType(kind: FileKind, name: string): string {
  if (kind !== 'zip') return kindTypes[kind];
  const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return officeTypes[extension] ?? 'application/zip';
}

// ----- Signed links -----

/** Whose file a link opens: an assignment's attachment (a) or a submission's answer (s), by row id. */
interface FileOwner {
  kind: 'a' | 's';
  id: number;
}

/** A link's path segment: the owner and the object, `a12-<uuid>`; the signature covers both and the expiry. */
const tokenPattern = /^([as])([1-9]\d{0,9})-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

const signed = (secret: string, token: string, expires: number) => linkSignature(secret, 'file', `${token}\n${expires}`);

/** The link to a stored file, valid for fileLinkTtlSeconds from `now` (whole seconds). */
export function signedFileUrl(secret: string, owner: FileOwner, key: string, now: Date = new Date()): string {
  const token = `${owner.kind}${owner.id}-${key.slice(filePrefix.length)}`;
  const expires = Math.floor(now.getTime() / 1000) + fileLinkTtlSeconds;
  const signature = signed(secret, token, expires).toString('base64url');
  return `${pathOf(apiRoutes.assignments.file, { key: token })}?expires=${expires}&signature=${signature}`;
}

/**
 * The owner and storage key a request's link opens, or null when the link is malformed, tampered
 * with, or expired. The signature is compared in constant time.
 */
export function verifyFileLink(
  secret: string,
  token: string,
  query: Record<string, unknown>,
  nowSeconds: number,
): { owner: FileOwner; key: string } | null {
  const match = tokenPattern.exec(token);
  if (!match || Number(match[2]) > 2 ** 31 - 1) return null;
  const { expires, signature } = query;
  if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) return null;
  if (typeof signature !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return null;
  const expected = signed(secret, token, Number(expires));
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (Number(expires) <= nowSeconds) return null;
  return { owner: { kind: match[1] as 'a' | 's', id: Number(match[2]) }, key: `${filePrefix}${match[3]}` };
}

/** A stored file as responses show it, or null when there is none. */
export function presentFile(
  secret: string,
  owner: FileOwner,
  row: { fileKey: string | null; fileName: string | null; fileType: string | null; fileSize: number | null },
  now: Date,
): AttachedFile | null {
  if (!row.fileKey) return null;
  return {
    name: row.fileName ?? 'file',
    mime_type: row.fileType ?? 'application/octet-stream',
    size_bytes: Number(row.fileSize ?? 0),
    url: signedFileUrl(secret, owner, row.fileKey, now),
  };
}

// ----- Uploads -----

/** A file stored from a request: where, and what it is. */
/** The storage assignment files go to, and the log of what fails there. */
export interface FileStore {
  storage: Storage;
  log: FastifyBaseLogger;
}

export interface StoredFile {
  fileKey: string;
  fileName: string;
  fileType: string;
  fileSize: number;
}

/** The storage failed (not the request): answered as a server error. */
export class StorageFailed extends Error {
  constructor(override readonly cause: unknown) {
    super('The file storage failed', { cause });
  }
}

/**
 * Streams the multipart file into storage after checking its first bytes (415 when it is none of the
 * kinds; a text file must stay text to its end). Past the size limit (413), or when the request ends
 * before the file does, it fails and the storage keeps nothing of it. Rejects with the request's
 * error when it was the request's fault, else with a StorageFailed.
 */
export async function storeUpload(files: FileStore, request: FastifyRequest, part: MultipartFile): Promise<StoredFile> {
  let kind: FileKind | null = null;
  const { stream, failed } = await checkedUpload(request, part, {
    tooLarge: messages.fileTooLarge,
    malformed: messages.validationFailed,
    accept(first) {
      kind = sniffKind(first);
      if (!kind) throw new HttpError(415, messages.fileTypeNotAllowed);
      if (kind !== 'text') return;
      // A text file is held to being text to its last byte.
      const decoder = new TextDecoder('utf-8', { fatal: true });
      return (bytes) => {
        let text: string;
        try {
          text = bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
        } catch {
          throw new HttpError(415, messages.fileTypeNotAllowed);
        }
        if (textControls.test(text)) throw new HttpError(415, messages.fileTypeNotAllowed);
      };
    },
  });
  if (!kind) throw new HttpError(415, messages.fileTypeNotAllowed);

  const fileName = storedFileName(part.filename ?? '', kind);
  const fileType = fileMimeType(kind, fileName);
  const fileKey = `${filePrefix}${randomUUID()}`;
  try {
    const { sizeBytes } = await files.storage.put(fileKey, stream, fileType);
    return { fileKey, fileName, fileType, fileSize: sizeBytes };
  } catch (error) {
    throw failed.error ?? new StorageFailed(error);
  }
}

/** Removes stored files, logging (not throwing) what fails: the rows no longer name them. */
export async function deleteFiles(files: FileStore, keys: (string | null | undefined)[]): Promise<void> {
  for (const key of keys) {
    if (!key) continue;
    await files.storage.delete(key).catch((error: unknown) => files.log.warn({ err: error, key }, 'could not delete an assignment file'));
  }
}

// ----- The raw route -----

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

const refusals: FastifySchema = { hide: true, response: { 403: errorEnvelope, 404: errorEnvelope } };

/**
 * GET apiRoutes.assignments.file: the bytes of an attachment or an answer behind its signed link (the
 * whole authorisation: a download link cannot send a bearer token). Registered with app.route, as the
 * recordings' media route: raw bytes, out of the OpenAPI document, its refusals in the API's envelope.
 */
export async function fileRoutes(app: FastifyInstance): Promise<void> {
  app.route({
    method: 'GET',
    url: apiRoutes.assignments.file.path,
    schema: refusals,
    handler: async (request, reply) => {
      const token = (request.params as { key: string }).key;
      // The signature first: without one nobody learns whether a file exists.
      const link = verifyFileLink(app.jwtSecret, token, request.query as Record<string, unknown>, Date.now() / 1000);
      if (!link) throw forbidden(messages.fileLinkInvalid);
      const { owner, key } = link;
      // Still that assignment's or answer's file (a replaced or deleted one is gone).
      const result = await app.db.execute(
        owner.kind === 'a'
          ? sql`select file_name, file_type from assignments where id = ${owner.id} and file_key = ${key}`
          : sql`select file_name, file_type from assignment_submissions where id = ${owner.id} and file_key = ${key}`,
      );
      const [row] = rowsOf<{ file_name: string | null; file_type: string | null }>(result);
      if (!row) throw notFound(messages.notFound);
      const size = await app.storage.size(key);
      if (size === null) throw notFound(messages.notFound);
      const body = await app.storage.read(key).catch((error: unknown) => {
        throw error instanceof NoSuchKeyError ? notFound(messages.notFound) : error;
      });
      return reply
        .status(200)
        .header('content-type', row.file_type ?? 'application/octet-stream')
        .header('content-length', String(size))
        .header('content-disposition', attachment(row.file_name ?? 'file'))
        .header('x-content-type-options', 'nosniff')
        // Opened rather than saved, it still runs nothing and reaches nothing in this origin.
        .header('content-security-policy', "default-src 'none'; sandbox")
        // Only this browser may keep it: the link is a credential.
        .header('cache-control', 'private, no-store')
        .send(body);
    },
  });
}
