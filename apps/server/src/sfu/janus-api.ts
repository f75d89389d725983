// Janus's WebSocket API, as the server speaks it (browsers never do): one connection to an instance,
// sessions on it, plugin handles in a session, and requests matched to their answers by transaction.
// A plain `ws` client: Meetecho's janode would pull in a native build (unix-dgram) for a transport we
// do not use, and this is all of the API we need.
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';

/** What a plugin answers, and what Janus says about a handle's media. */
export interface JanusEvent {
  janus: string;
  plugindata?: { plugin: string; data: Record<string, unknown> };
  jsep?: { type: 'offer' | 'answer'; sdp: string };
  [key: string]: unknown;
}

class JanusError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

const REQUEST_TIMEOUT_MS = 10_000;
/** Janus ends a session silent for session_timeout (60 s): keep ours alive well within it. */
const KEEPALIVE_MS = 20_000;

interface Pending {
  resolve(event: JanusEvent): void;
  reject(error: Error): void;
  /** An asynchronous plugin request is answered by an event after its ack. */
  waitForEvent: boolean;
  timer: ReturnType<typeof setTimeout>;
}

/** One WebSocket connection to one Janus instance. Emits 'close' when it is lost. */
export class JanusConnection extends EventEmitter {
  private readonly pending = new Map<string, Pending>();
  private readonly handles = new Map<number, JanusHandle>();
  private closed = false;

  private constructor(
    private readonly socket: WebSocket,
    private readonly apiSecret: string | undefined,
  ) {
    super();
    socket.on('message', (raw) => this.onMessage(raw.toString()));
    socket.on('close', () => this.onClose());
    socket.on('error', () => this.onClose());
  }

  static open(url: string, apiSecret?: string, timeoutMs = 5_000): Promise<JanusConnection> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, 'janus-protocol', { handshakeTimeout: timeoutMs });
      socket.once('open', () => resolve(new JanusConnection(socket, apiSecret)));
      socket.once('error', (error) => reject(error));
    });
  }

  get isOpen() {
    return !this.closed;
  }

  /** Sends a request; resolves with its answer (or, with `waitForEvent`, the event after the ack). */
  send(message: Record<string, unknown>, waitForEvent = false): Promise<JanusEvent> {
    if (this.closed) return Promise.reject(new JanusError('Janus connection closed'));
    const transaction = randomBytes(9).toString('base64url');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(transaction);
        reject(new JanusError(`Janus did not answer ${String(message.janus)} in time`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(transaction, { resolve, reject, waitForEvent, timer });
      this.socket.send(JSON.stringify({ ...message, transaction, ...(this.apiSecret ? { apisecret: this.apiSecret } : {}) }));
    });
  }

  async createSession(): Promise<JanusSession> {
    const answer = await this.send({ janus: 'create' });
    const session = new JanusSession(this, (answer.data as { id: number }).id);
    return session;
  }

  /** Janus's own description of itself (a health check). */
  info(): Promise<JanusEvent> {
    return this.send({ janus: 'info' });
  }

  register(handle: JanusHandle) {
    this.handles.set(handle.id, handle);
  }

  unregister(handle: JanusHandle) {
    this.handles.delete(handle.id);
  }

  close() {
    if (this.closed) return;
    this.socket.close();
    this.onClose();
  }

  private onMessage(text: string) {
    let message: JanusEvent & { transaction?: string; sender?: number };
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    const pending = message.transaction ? this.pending.get(message.transaction) : undefined;
    if (pending) {
      if (message.janus === 'ack' && pending.waitForEvent) return;
      this.pending.delete(message.transaction!);
      clearTimeout(pending.timer);
      if (message.janus === 'error') {
        const error = message.error as { code: number; reason: string };
        return pending.reject(new JanusError(error.reason, error.code));
      }
      const pluginError = message.plugindata?.data;
      if (pluginError && typeof pluginError.error === 'string') {
        return pending.reject(new JanusError(pluginError.error, pluginError.error_code as number | undefined));
      }
      return pending.resolve(message);
    }
    // Not an answer: an event for a handle (a new publisher, media up, a hangup).
    if (message.sender !== undefined) this.handles.get(message.sender)?.emit('event', message);
  }

  private onClose() {
    if (this.closed) return;
    this.closed = true;
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new JanusError('Janus connection closed'));
    }
    this.pending.clear();
    for (const handle of this.handles.values()) handle.emit('closed');
    this.handles.clear();
    this.emit('close');
  }
}

/** A Janus session: the handles it holds go with it. Kept alive while it lives. */
export class JanusSession {
  private readonly keepalive: ReturnType<typeof setInterval>;

  constructor(
    readonly connection: JanusConnection,
    readonly id: number,
  ) {
    this.keepalive = setInterval(() => {
      connection.send({ janus: 'keepalive', session_id: id }).catch(() => undefined);
    }, KEEPALIVE_MS);
    this.keepalive.unref();
  }

  async attach(plugin = 'janus.plugin.videoroom'): Promise<JanusHandle> {
    const answer = await this.connection.send({ janus: 'attach', session_id: this.id, plugin });
    const handle = new JanusHandle(this, (answer.data as { id: number }).id);
    this.connection.register(handle);
    return handle;
  }

  async destroy() {
    clearInterval(this.keepalive);
    await this.connection.send({ janus: 'destroy', session_id: this.id }).catch(() => undefined);
  }
}

/**
 * A handle on a plugin. Emits 'event' (JanusEvent) for what comes unasked, and 'closed' when its
 * connection is lost.
 */
export class JanusHandle extends EventEmitter {
  constructor(
    readonly session: JanusSession,
    readonly id: number,
  ) {
    super();
  }

  private base() {
    return { session_id: this.session.id, handle_id: this.id };
  }

  /** A synchronous plugin request (create, exists, allowed, destroy…): the plugin's data. */
  async request(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const answer = await this.session.connection.send({ janus: 'message', ...this.base(), body });
    return answer.plugindata?.data ?? {};
  }

  /** An asynchronous plugin request (join, configure, start…): the event that answers it, with its jsep. */
  async message(body: Record<string, unknown>, jsep?: { type: string; sdp: string; rid_order?: 'lmh' | 'hml' }): Promise<JanusEvent> {
    return this.session.connection.send({ janus: 'message', ...this.base(), body, ...(jsep ? { jsep } : {}) }, true);
  }

  /** A browser's ICE candidate (null: its gathering is complete). */
  trickle(candidate: Record<string, unknown> | null) {
    return this.session.connection.send({ janus: 'trickle', ...this.base(), candidate: candidate ?? { completed: true } });
  }

  async detach() {
    this.session.connection.unregister(this);
    await this.session.connection.send({ janus: 'detach', ...this.base() }).catch(() => undefined);
  }
}
