// The Janus instances this process knows (JANUS_URLS, or the one main.ts started), each with one
// connection and one handle for managing rooms. An instance whose connection is lost is down and tried
// again every few seconds; the pool tells who listens (sfu.ts) so that rooms placed on it move.
import { randomBytes, randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { JanusConnection, type JanusHandle, type JanusSession } from './janus-api';

const RETRY_MS = 2_000;
/** Janus's REMB cap for each publisher, bits/s: the specification's 2000 kbps video budget, plus audio. */
const PUBLISHER_BITRATE = 2_100_000;

export interface JanusInstance {
  readonly url: string;
  readonly up: boolean;
  readonly connection: JanusConnection | null;
}

interface Managed extends JanusInstance {
  url: string;
  up: boolean;
  connection: JanusConnection | null;
  session: JanusSession | null;
  admin: JanusHandle | null;
  retry: ReturnType<typeof setTimeout> | null;
}

export interface JanusPool {
  /** Whether any instance is configured at all (capacity limits follow from it, up or not). */
  readonly configured: boolean;
  /** Whether an instance is up now. */
  available(): boolean;
  instance(url: string): JanusInstance | undefined;
  /** The instance up now with the fewest people in its rooms, other than `except`. */
  leastLoaded(except?: string): Promise<JanusInstance | null>;
  /** Makes a Janus room on `url` behind a fresh secret, for at most `publishers` people. */
  createRoom(url: string, publishers: number): Promise<{ janusRoom: number; secret: string }>;
  destroyRoom(url: string, janusRoom: number, secret: string): Promise<void>;
  /** Lets a per-participant token into (or out of) a Janus room: only those the server admitted may join it. */
  allow(url: string, janusRoom: number, secret: string, token: string, action: 'add' | 'remove'): Promise<void>;
  /** Called when an instance goes down (its rooms must move) or comes up. */
  onChange(listener: (url: string, up: boolean) => void): void;
  close(): Promise<void>;
}

export function janusPool(urls: string[], apiSecret: string | undefined, log: FastifyBaseLogger): JanusPool {
  const instances = new Map<string, Managed>(
    urls.map((url) => [url, { url, up: false, connection: null, session: null, admin: null, retry: null }]),
  );
  const listeners: ((url: string, up: boolean) => void)[] = [];
  let closed = false;

  async function connect(instance: Managed) {
    instance.retry = null;
    if (closed) return;
    try {
      const connection = await JanusConnection.open(instance.url, apiSecret);
      const session = await connection.createSession();
      const admin = await session.attach();
      Object.assign(instance, { connection, session, admin, up: true });
      log.info({ janus: instance.url }, 'SFU instance up');
      connection.once('close', () => {
        Object.assign(instance, { connection: null, session: null, admin: null, up: false });
        if (closed) return;
        log.warn({ janus: instance.url }, 'SFU instance lost');
        for (const listener of listeners) listener(instance.url, false);
        instance.retry = setTimeout(() => void connect(instance), RETRY_MS);
      });
      for (const listener of listeners) listener(instance.url, true);
    } catch (error) {
      if (closed) return;
      log.warn({ janus: instance.url, err: error }, 'SFU instance unreachable; trying again');
      instance.retry = setTimeout(() => void connect(instance), RETRY_MS);
    }
  }
  const ready = Promise.all([...instances.values()].map(connect));

  function adminOf(url: string): JanusHandle {
    const admin = instances.get(url)?.admin;
    if (!admin) throw new Error(`SFU instance ${url} is down`);
    return admin;
  }

  return {
    configured: instances.size > 0,
    available: () => [...instances.values()].some((instance) => instance.up),
    instance: (url) => instances.get(url),
    async leastLoaded(except) {
      await ready;
      let best: { instance: Managed; people: number } | null = null;
      for (const instance of instances.values()) {
        if (!instance.up || instance.url === except) continue;
        try {
          const { list } = (await instance.admin!.request({ request: 'list' })) as { list?: { num_participants?: number }[] };
          const people = (list ?? []).reduce((sum, room) => sum + (room.num_participants ?? 0), 0);
          if (!best || people < best.people) best = { instance, people };
        } catch (error) {
          log.warn({ janus: instance.url, err: error }, 'SFU instance did not list its rooms');
        }
      }
      return best?.instance ?? null;
    },
    async createRoom(url, publishers) {
      const secret = randomBytes(24).toString('base64url');
      // Janus's numeric ids must stay within JSON's safe integers.
      const janusRoom = randomInt(1, 2 ** 47);
      await adminOf(url).request({
        request: 'create',
        room: janusRoom,
        secret,
        // Listed, so that `list` counts its people for leastLoaded (Janus hides private rooms from it).
        // Only this server reaches Janus's API, and a room's id is no way in: joining takes a token
        // of its `allowed` list, managing it the room's secret.
        is_private: false,
        publishers,
        bitrate: PUBLISHER_BITRATE,
        fir_freq: 10,
        audiocodec: 'opus',
        videocodec: 'vp8',
        audiolevel_event: true,
        audio_active_packets: 50,
        audio_level_average: 40,
        notify_joining: false,
        // Only tokens the server added may join (allow()); the list starts empty.
        allowed: [],
      });
      return { janusRoom, secret };
    },
    async destroyRoom(url, janusRoom, secret) {
      const admin = instances.get(url)?.admin;
      if (admin) await admin.request({ request: 'destroy', room: janusRoom, secret }).catch(() => undefined);
    },
    async allow(url, janusRoom, secret, token, action) {
      await adminOf(url).request({ request: 'allowed', room: janusRoom, secret, action, allowed: [token] });
    },
    onChange(listener) {
      listeners.push(listener);
    },
    async close() {
      closed = true;
      for (const instance of instances.values()) {
        if (instance.retry) clearTimeout(instance.retry);
        await instance.session?.destroy();
        instance.connection?.close();
      }
    },
  };
}
