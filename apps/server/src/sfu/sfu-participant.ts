// One person in an SFU room, as this server process holds them in Janus: a session with a publisher
// handle (their camera, microphone and screen go up once) and a subscriber handle (everyone else's
// streams come down on one connection). It turns Janus's events into the socket's `action:sfu_*` and
// the browser's answers and candidates into Janus requests, one negotiation at a time.
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { SfuStream, VideoLayer } from '@mooz/contract/realtime';
import type { JanusEvent, JanusHandle, JanusSession } from './janus-api';
import type { JanusPool } from './janus-pool';
import type { Placement } from './placements';

type Jsep = { type: 'offer' | 'answer'; sdp: string };

/** What Janus says of one stream of a subscription. */
interface JanusStream {
  type: 'audio' | 'video' | 'data';
  mid: string;
  active?: boolean;
  feed_id?: number;
  feed_mid?: string;
  feed_display?: string;
  feed_description?: string;
}

/** A publisher as Janus lists it to the room. */
interface JanusPublisher {
  id: number;
  display?: string;
  streams?: { type: string; mid: string; disabled?: boolean }[];
}

interface ParticipantHooks {
  offer(payload: { jsep: Jsep; streams: SfuStream[] }): void;
  /** Whether this participant's media reaches Janus (the hosts' People list). */
  media(connected: boolean): void;
}

/** How long Janus's offer waits for the browser's answer before the negotiation is given up. */
const ANSWER_TIMEOUT_MS = 15_000;
/** Simulcast substreams: 0 the lowest (thumbnails), 2 the highest (the speaker, a pinned tile). */
const SUBSTREAM: Record<Exclude<VideoLayer, 'off'>, number> = { high: 2, low: 0 };

export class SfuParticipant {
  private session: JanusSession | null = null;
  private publisher: JanusHandle | null = null;
  private subscriber: JanusHandle | null = null;
  private published = false;
  private readonly token = randomBytes(18).toString('base64url');
  /** `feed:mid` of every stream subscribed to, so a publisher's new stream is added once. */
  private readonly subscribed = new Set<string>();
  private streams: JanusStream[] = [];
  /** Negotiations with the browser, one after another. */
  private queue: Promise<void> = Promise.resolve();
  private awaitingAnswer: { resolve(jsep: Jsep): void; reject(error: Error): void } | null = null;
  private closed = false;

  constructor(
    readonly peerId: string,
    readonly placement: Placement,
    private readonly pool: JanusPool,
    private readonly hooks: ParticipantHooks,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Publishes (first offer) or renegotiates (a track added or removed); resolves with Janus's answer. */
  async publish(jsep: Jsep, screenMid: string | null | undefined): Promise<Jsep> {
    const publisher = await this.joinAsPublisher();
    const descriptions = screenMid ? [{ mid: screenMid, description: 'screen' }] : [];
    // Chromium lists simulcast layers lowest first; Janus assumes highest first unless told, and would
    // then send a thumbnail the 720p layer and the speaker's tile the smallest.
    const answer = await publisher.message(
      this.published ? { request: 'configure', descriptions } : { request: 'publish', descriptions, audio: true, video: true },
      { ...jsep, rid_order: 'lmh' },
    );
    this.published = true;
    if (!answer.jsep) throw new Error('Janus sent no answer');
    return answer.jsep;
  }

  /** The browser's answer to the subscription offer it was sent. */
  answer(jsep: Jsep) {
    if (!this.awaitingAnswer) throw new Error('No subscription offer is waiting for an answer');
    this.awaitingAnswer.resolve(jsep);
    this.awaitingAnswer = null;
  }

  async trickle(target: 'publisher' | 'subscriber', candidate: Record<string, unknown> | null) {
    const handle = target === 'publisher' ? this.publisher : this.subscriber;
    if (handle) await handle.trickle(candidate);
  }

  /** Which substream of whose video to forward, or none (a tile not on screen). */
  async layers(choices: { peerId: string; source: 'camera' | 'screen'; layer: VideoLayer }[]) {
    if (!this.subscriber) return;
    const streams = [];
    for (const choice of choices) {
      const stream = this.streams.find(
        (s) => s.type === 'video' && s.feed_display === choice.peerId && sourceOf(s) === choice.source && s.active !== false,
      );
      if (!stream) continue;
      streams.push(choice.layer === 'off' ? { mid: stream.mid, send: false } : { mid: stream.mid, send: true, substream: SUBSTREAM[choice.layer] });
    }
    if (streams.length) await this.subscriber.message({ request: 'configure', streams });
  }

  /** Leaves Janus: handles detached, session ended, token withdrawn. Safe to call twice. */
  async close() {
    if (this.closed) return;
    this.closed = true;
    this.awaitingAnswer?.reject(new Error('left'));
    this.awaitingAnswer = null;
    const session = this.session;
    this.session = this.publisher = this.subscriber = null;
    await session?.destroy();
    const { instance, janusRoom, secret } = this.placement;
    await this.pool.allow(instance, janusRoom, secret, this.token, 'remove').catch(() => undefined);
  }

  private async joinAsPublisher(): Promise<JanusHandle> {
    if (this.publisher) return this.publisher;
    const connection = this.pool.instance(this.placement.instance)?.connection;
    if (!connection) throw new Error('SFU instance is down');
    const { instance, janusRoom, secret } = this.placement;
    await this.pool.allow(instance, janusRoom, secret, this.token, 'add');
    this.session = await connection.createSession();
    const publisher = await this.session.attach();
    publisher.on('event', (event: JanusEvent) => this.onPublisherEvent(event));
    const joined = await publisher.message({ request: 'join', ptype: 'publisher', room: janusRoom, display: this.peerId, token: this.token });
    this.publisher = publisher;
    this.subscribeTo((joined.plugindata?.data.publishers as JanusPublisher[] | undefined) ?? []);
    return publisher;
  }

  private onPublisherEvent(event: JanusEvent) {
    if (this.closed) return;
    if (event.janus === 'webrtcup') return this.hooks.media(true);
    if (event.janus === 'hangup') return this.hooks.media(false);
    const data = event.plugindata?.data ?? {};
    // A publisher gone (or stopped publishing): should it come back, its streams are new to us.
    for (const gone of [data.leaving, data.unpublished]) {
      if (typeof gone === 'number') for (const key of [...this.subscribed]) if (key.startsWith(`${gone}:`)) this.subscribed.delete(key);
    }
    const publishers = data.publishers as JanusPublisher[] | undefined;
    if (publishers?.length) this.subscribeTo(publishers);
  }

  /**
   * Adds every stream of these publishers not yet received (our own excepted), and drops the ones they
   * stopped (a screen share ended), so its tile goes; it may come back later on the same mid.
   */
  private subscribeTo(publishers: JanusPublisher[]) {
    const wanted: { feed: number; mid: string }[] = [];
    const stopped: { feed: number; mid: string }[] = [];
    for (const publisher of publishers) {
      if (publisher.display === this.peerId) continue;
      for (const stream of publisher.streams ?? []) {
        const key = `${publisher.id}:${stream.mid}`;
        if (stream.type === 'data') continue;
        if (stream.disabled) {
          if (this.subscribed.delete(key)) stopped.push({ feed: publisher.id, mid: stream.mid });
          continue;
        }
        if (this.subscribed.has(key)) continue;
        this.subscribed.add(key);
        wanted.push({ feed: publisher.id, mid: stream.mid });
      }
    }
    if (stopped.length && this.subscriber) this.negotiate(() => this.subscriber!.message({ request: 'unsubscribe', streams: stopped }));
    if (wanted.length) this.negotiate(() => this.subscribeStreams(wanted));
  }

  private async subscribeStreams(streams: { feed: number; mid: string }[]): Promise<JanusEvent> {
    if (this.subscriber) return this.subscriber.message({ request: 'subscribe', streams });
    const subscriber = await this.session!.attach();
    subscriber.on('event', (event: JanusEvent) => {
      // Janus renegotiates by itself when a publisher leaves or stops a stream.
      if (!this.closed && event.jsep) this.negotiate(async () => event);
    });
    this.subscriber = subscriber;
    return subscriber.message({ request: 'join', ptype: 'subscriber', room: this.placement.janusRoom, streams, token: this.token });
  }

  /** Runs one subscription change: Janus's offer to the browser, its answer back, then the next. */
  private negotiate(change: () => Promise<JanusEvent>) {
    this.queue = this.queue
      .then(async () => {
        if (this.closed) return;
        const event = await change();
        const data = event.plugindata?.data;
        if (Array.isArray(data?.streams)) this.streams = data.streams as JanusStream[];
        if (!event.jsep || this.closed) return;
        const answer = new Promise<Jsep>((resolve, reject) => {
          this.awaitingAnswer = { resolve, reject };
          setTimeout(() => reject(new Error('no answer to the subscription offer')), ANSWER_TIMEOUT_MS).unref();
        });
        this.hooks.offer({ jsep: event.jsep, streams: this.visibleStreams() });
        const jsep = await answer;
        await this.subscriber?.message({ request: 'start' }, jsep);
      })
      .catch((error: unknown) => {
        if (!this.closed) this.log.warn({ err: error, peer: this.peerId }, 'SFU subscription change failed');
      });
  }

  private visibleStreams(): SfuStream[] {
    return this.streams
      .filter((s) => (s.type === 'audio' || s.type === 'video') && s.active !== false && s.feed_display)
      .map((s) => ({ mid: s.mid, peerId: s.feed_display!, kind: s.type as 'audio' | 'video', source: sourceOf(s) }));
  }
}

const sourceOf = (stream: JanusStream): 'camera' | 'screen' => (stream.feed_description === 'screen' ? 'screen' : 'camera');
