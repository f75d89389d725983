// The address a session is joined at, as the web app routes it (apps/web/src/config/paths.ts,
// paths.meeting): what reminder mails and calendar events link to.
import type { Config } from '../../config';

/**
 * Where users reach the app: PUBLIC_URL when set; otherwise the request's own address when there is a
 * request (the calendar card), else HOST and PORT (a mail written by a background pass).
 */
export function publicOrigin(config: Pick<Config, 'publicUrl' | 'host' | 'port'>, request?: { protocol: string; host: string }): string {
  if (config.publicUrl) return config.publicUrl;
  if (request?.host) return `${request.protocol}://${request.host}`;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

export const joinLink = (origin: string, roomId: string) => `${origin}/meeting/${encodeURIComponent(roomId)}`;
