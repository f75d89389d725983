// Recording bytes in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, s3rver in the tests), so several
// server processes behind a load balancer share them, and browsers fetch them with presigned GETs
// without the bytes passing through the app server.
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
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
import { NoSuchKeyError, checkKey, checkPrefix, type RecordingStorage } from './storage';

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

export function createS3Storage(settings: S3Settings): RecordingStorage {
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
