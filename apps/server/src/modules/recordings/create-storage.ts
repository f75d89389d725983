// Which recording storage this server uses: an S3-compatible bucket when S3_URL and S3_BUCKET are set
// (config.s3), otherwise files under DATA_DIR/recordings. app.ts decorates the app with it.
import type { Config } from '../../config';
import { createFileStorage } from './file-storage';
import type { Storage } from './storage';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where recording bytes live (closed when the app closes). */
    storage: Storage;
  }
}

export async function createStorage(config: Pick<Config, 'dataDir' | 's3'>): Promise<Storage> {
  if (!config.s3) return createFileStorage(config.dataDir);
  // Loaded only when used: the AWS SDK makes every server process start slower and weigh more.
  const { createS3Storage } = await import('./s3-storage');
  return createS3Storage(config.s3);
}

/**
 * Origins the player's <video> loads from besides the app's own: the bucket's endpoint, whose presigned
 * URLs the browser fetches directly. For the Content-Security-Policy's media-src.
 */
export function recordingMediaOrigins(config: Pick<Config, 's3'>): string[] {
  return config.s3 ? [new URL(config.s3.url).origin] : [];
}
