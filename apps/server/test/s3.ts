// A real S3-compatible server for the tests of the bucket storage: s3rver (from npm) on a port of its
// own, keeping its objects in a temporary directory. Stop it when done.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// s3rver ships no types; the little used here is declared below.
// @ts-expect-error -- untyped CommonJS module
import S3rverModule from 's3rver';
import type { S3Settings } from '../src/modules/recordings/s3-storage';

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  /** Koa's middleware list, composed when the server starts. */
  middleware: Array<(ctx: KoaContext, next: () => Promise<void>) => Promise<void>>;
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
}
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
}
const S3rver = S3rverModule as new (options: Record<string, unknown>) => S3rverInstance;

export interface TestS3 {
  settings: S3Settings;
  /** The objects' directory, to check from the outside that nothing was left. */
  directory: string;
  /** The multipart uploads s3rver holds (begun, neither completed nor aborted). */
  pendingUploads(): string[];
  /** The environment that points the app at this bucket. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startS3(bucket = 'mooz-test'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'mooz-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket, configs: [] }],
    // s3rver checks V2 signatures only; V4 (what the AWS SDK signs with) it cannot check, and says so
    // unless told to let them through. The real signing is still exercised: the SDK signs every request.
    allowMismatchedSignatures: true,
  });
  // s3rver 3.7 has no AbortMultipartUpload (DELETE /bucket/key?uploadId=…; it answers 405), which the
  // storage sends when a streamed upload fails. Taught here as S3 does it: the upload and its parts go,
  // 204. The tests then see, in the parts directory, that a failed upload left nothing.
  server.middleware.unshift(async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    if (ctx.method !== 'DELETE' || typeof uploadId !== 'string' || !/^[\w-]+$/.test(uploadId)) return next();
    const bucketName = decodeURIComponent(ctx.path.split('/')[1] ?? '');
    rmSync(path.join(server.store.getResourcePath(bucketName, undefined, 'uploads'), uploadId), { recursive: true, force: true });
    ctx.status = 204;
  });
  const { port } = await server.run();
  const settings: S3Settings = {
    url: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    // s3rver's built-in account.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  };
  return {
    settings,
    directory,
    pendingUploads() {
      const uploads = server.store.getResourcePath(bucket, undefined, 'uploads');
      return existsSync(uploads) ? readdirSync(uploads) : [];
    },
    env: {
      S3_URL: settings.url,
      S3_BUCKET: bucket,
      S3_REGION: settings.region,
      S3_ACCESS_KEY_ID: settings.accessKeyId!,
      S3_SECRET_ACCESS_KEY: settings.secretAccessKey!,
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
