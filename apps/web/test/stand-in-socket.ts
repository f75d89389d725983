// For the meeting's unit tests: a stand-in for socket.io's client socket that records what is sent and
// lets a test say what the server says. Tests bend it where they need to (a socket not yet connected,
// a handshake's auth, React's act around what the server says) by options or a subclass.
type Auth = (send: (auth: Record<string, unknown>) => void) => void;

export class StandInSocket {
  readonly sent: { event: string; payload: unknown; ack?: (res: unknown) => void }[] = [];
  private readonly handlers = new Map<string, ((payload: unknown) => void)[]>();
  connected: boolean;
  active = true;
  readonly options: { auth?: Auth };

  constructor(options: { auth?: Auth; connected?: boolean } = {}) {
    this.options = options;
    this.connected = options.connected ?? true;
  }

  on(event: string, handler: (payload: unknown) => void) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    return this;
  }

  emit(event: string, payload: unknown, ack?: (res: unknown) => void) {
    this.sent.push({ event, payload, ack });
    return this;
  }

  removeAllListeners() {
    this.handlers.clear();
    return this;
  }

  disconnect() {
    this.connected = false;
    return this;
  }

  serverSays(event: string, payload?: unknown) {
    for (const handler of this.handlers.get(event) ?? []) handler(payload);
  }

  joins() {
    return this.sent.filter((message) => message.event === 'request:join_room');
  }

  signalsTo(peerId: string) {
    return this.sent
      .filter((message) => message.event === 'request:send_mesage' && (message.payload as { to: string }).to === peerId)
      .map((message) => (message.payload as { data: Record<string, unknown> }).data);
  }

  /** What the socket would send in its handshake now (socket.io calls `auth` on every connection). */
  handshake() {
    let sent: Record<string, unknown> = {};
    this.options.auth?.((auth) => (sent = auth));
    return sent;
  }
}
