// Recording bytes in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, s3rver in the tests), so several
// server processes behind a load balancer share them, and browsers fetch them with presigned GETs
// without the bytes passing through the app server.
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { attachment } from '../../infrastructure/csv';
import { byteOrder, checkRange } from './file-storage';
import { NoSuchKeyError, checkKey, checkPrefix, guardedWriter, type PatchableWriter, type Storage } from './storage';

export interface S3Settings {
  /** The endpoint, e.g. https://s3.eu-west-1.amazonaws.com or http://minio:9000; browsers fetch presigned URLs from it. */
  url: string;
  bucket: string;
  region: string;
  /** Without them the SDK's own chain is used (AWS_* variables, instance or task roles). */
  accessKeyId?: string;
  secretAccessKey?: string;
}

/** The size of each part of a multipart upload (S3's smallest); with two in flight, a put holds about 15 MB. */
const partSize = 5 * 1024 * 1024;
const queueSize = 2;

/**
 * Patchable writes (putPatchable): S3's smallest part, which part 1 (the head, patched last) is held
 * to; the size of parts 2..n; how many of those are in flight at once. About 5 + 8 × 4 MiB at most.
 */
export const patchableParts = { minimum: 5 * 1024 * 1024, size: 8 * 1024 * 1024, inFlight: 2 };

export function createS3Storage(settings: S3Settings): Storage {
  const client = new S3Client({
    endpoint: settings.url,
    region: settings.region,
    // https://host/bucket/key rather than https://bucket.host/key: what MinIO and s3rver serve, and
    // what needs no wildcard DNS; AWS S3 still answers it.
    forcePathStyle: true,
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
    // The SDK otherwise adds CRC32 checksums, streamed as aws-chunked trailers, to every upload: many
    // S3-compatible servers (older MinIO, Ceph, s3rver) reject or mangle them. Only where S3 demands one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;

  return {
    kind: 's3',

    async put(key, body, contentType) {
      checkKey(key);
      let sizeBytes = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          sizeBytes += chunk.length;
          done(null, chunk);
        },
      });
      // The body's error or early close reaches the upload through `counted` (pipeline destroys it
      // with the error), which then fails and aborts its multipart upload.
      const piping = pipeline(body, counted);
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: counted, ContentType: contentType },
        partSize,
        queueSize,
        // On failure the multipart upload is aborted: no parts are left in the bucket, billed and unseen.
        leavePartsOnError: false,
      });
      const uploaded = upload.done().catch((error: unknown) => {
        // The bucket failed while the body still flows: stop reading it (a request body would hang).
        counted.destroy(error as Error);
        throw error;
      });
      // Both settle before put does, so a caller that sees the rejection sees the multipart upload aborted.
      const [sent, piped] = await Promise.allSettled([uploaded, piping]);
      // The body's own failure is the cause worth reporting; the upload's follows from it.
      if (piped.status === 'rejected') throw piped.reason;
      if (sent.status === 'rejected') throw sent.reason;
      return { sizeBytes };
    },

    async putPatchable(key, contentType, { headBytes }) {
      checkKey(key);
      return patchableUpload(client, { Bucket, Key: key, ContentType: contentType }, headBytes);
    },

    async read(key, range) {
      checkKey(key);
      if (range) checkRange(range);
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket, Key: key, ...(range && { Range: `bytes=${range.start}-${range.end}` }) }),
        );
        return answer.Body as Readable;
      } catch (error) {
        if (isMissing(error)) throw new NoSuchKeyError(key);
        throw error;
      }
    },

    async size(key) {
      checkKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return head.ContentLength ?? 0;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async delete(key) {
      checkKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async list(prefix) {
      checkPrefix(prefix);
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix || undefined, ContinuationToken }));
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys.sort(byteOrder);
    },

    async deletePrefix(prefix) {
      if (prefix === '') throw new Error('Refusing to delete every recording object');
      checkPrefix(prefix);
      const keys = await this.list(prefix);
      // DeleteObjects takes at most 1000 keys a request.
      for (let at = 0; at < keys.length; at += 1000) {
        const batch = keys.slice(at, at + 1000);
        const answer = await client.send(
          new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
        );
        const failed = answer.Errors?.[0];
        if (failed) throw new Error(`Could not delete ${failed.Key}: ${failed.Code} ${failed.Message}`);
      }
    },

    async presignedGet(key, options) {
      checkKey(key);
      const command = new GetObjectCommand({
        Bucket,
        Key: key,
        ResponseContentType: options.contentType,
        ...(options.downloadName !== undefined && { ResponseContentDisposition: attachment(options.downloadName) }),
      });
      return getSignedUrl(client, command, { expiresIn: options.expiresInSeconds, ...(options.signedAt && { signingDate: options.signedAt }) });
    },

    async close() {
      client.destroy();
    },
  };
}

function isMissing(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata?.httpStatusCode === 404;
  }
  return false;
}

/**
 * A one-pass write whose head is patched at the end, as a multipart upload: part 1 (the head and what
 * follows it up to S3's 5 MiB minimum part) is held in memory and uploaded last, once patched; parts
 * 2..n are uploaded as they fill, at most `inFlight` at a time (write() waits for one to end). An
 * object smaller than part 1 is one PutObject at finish(), with no multipart upload at all. On any
 * failure the multipart upload is aborted: no parts stay in the bucket, billed and unseen.
 */
function patchableUpload(
  client: S3Client,
  object: { Bucket: string; Key: string; ContentType: string },
  headBytes: number,
): PatchableWriter {
  const { Bucket, Key } = object;
  const firstPartBytes = Math.max(patchableParts.minimum, headBytes);
  let first: Buffer[] = [];
  let firstLength = 0;
  let current: Buffer[] = [];
  let currentLength = 0;
  let sizeBytes = 0;
  let nextPart = 2;
  const parts: Array<{ PartNumber: number; ETag: string | undefined }> = [];
  let uploadId: Promise<string> | null = null;
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;

  const joined = (buffers: Buffer[]) => (buffers.length === 1 ? buffers[0]! : Buffer.concat(buffers));

  async function sendPart(body: Buffer) {
    while (inFlight.size >= patchableParts.inFlight) await Promise.race(inFlight);
    if (failure) throw failure.error;
    uploadId ??= client.send(new CreateMultipartUploadCommand(object)).then((answer) => answer.UploadId!);
    const UploadId = await uploadId;
    const PartNumber = nextPart++;
    const sending: Promise<void> = client
      .send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body: body, ContentLength: body.length }))
      .then((answer) => void parts.push({ PartNumber, ETag: answer.ETag }))
      .catch((error: unknown) => void (failure ??= { error }))
      .finally(() => inFlight.delete(sending));
    inFlight.add(sending);
  }

  return guardedWriter({
    async write(bytes) {
      sizeBytes += bytes.length;
      let rest = bytes;
      if (firstLength < firstPartBytes) {
        const take = Math.min(rest.length, firstPartBytes - firstLength);
        // Copied: the caller's buffer may be reused, and this one is held until the end.
        first.push(Buffer.from(rest.subarray(0, take)));
        firstLength += take;
        rest = rest.subarray(take);
      }
      if (!rest.length) return;
      current.push(rest);
      currentLength += rest.length;
      while (currentLength >= patchableParts.size) {
        const all = joined(current);
        current = all.length > patchableParts.size ? [all.subarray(patchableParts.size)] : [];
        currentLength = all.length - patchableParts.size;
        await sendPart(all.subarray(0, patchableParts.size));
      }
    },
    async patchHead(bytes) {
      if (bytes.length > headBytes || bytes.length > firstLength) throw new RangeError(`A head of ${bytes.length} bytes does not fit the ${Math.min(headBytes, firstLength)} reserved`);
      const part = joined(first);
      bytes.copy(part, 0);
      first = [part];
    },
    async finish() {
      const head = joined(first);
      if (!uploadId && !currentLength) {
        // Smaller than one part: one PutObject.
        await client.send(new PutObjectCommand({ ...object, Body: head, ContentLength: head.length }));
      } else {
        if (currentLength) await sendPart(joined(current));
        current = [];
        await Promise.allSettled([...inFlight]);
        if (failure) throw failure.error;
        const UploadId = await uploadId!;
        // Part 1 last: the head is final only now.
        const answer = await client.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 1, Body: head, ContentLength: head.length }));
        parts.push({ PartNumber: 1, ETag: answer.ETag });
        parts.sort((a, b) => a.PartNumber - b.PartNumber);
        await client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } }));
      }
      return { sizeBytes };
    },
    async discard() {
      first = [];
      current = [];
      await Promise.allSettled([...inFlight]);
      const started = await uploadId?.catch(() => null);
      if (started) await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: started }));
    },
  });
}
