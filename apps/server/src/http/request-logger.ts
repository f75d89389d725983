// What Fastify makes for every request before anything else: its id and its logger. Both are on the
// path of every request, so both are made cheaply: Fastify's defaults showed in a cached GET's profile
// as much as the access check did.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level } from 'pino';

/**
 * Request ids shaped as UUIDs, as before: a random prefix drawn when the process starts, so that two
 * processes (or two runs) never share one, and a count in the last 12 hex digits, so that no request
 * draws and writes out 16 random bytes of its own. An id names a request in the logs; it guards nothing.
 */
export function requestIds(): () => string {
  const prefix = randomUUID().slice(0, 24);
  const wrap = 2 ** 48;
  let next = 0;
  return () => {
    const id = prefix + next.toString(16).padStart(12, '0');
    next = (next + 1) % wrap;
    return id;
  };
}

const levels: readonly Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

type Parent = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
type LogMethod = (...args: unknown[]) => void;

/**
 * A request's logger that becomes pino's child logger (with the request's id bound) only when a line
 * is written at a level that is on. Pino writes a child's bindings out as JSON when the child is made,
 * which at `warn` (a request that goes well logs nothing) was work for nothing on every request.
 */
class RequestLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: Parent,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  silent(): void {}

  /** Whether a line at `level` would be written: the child, once made, answers for itself. */
  writes(level: Level): boolean {
    return this.made !== undefined || !this.parent.isLevelEnabled || this.parent.isLevelEnabled(level);
  }
}

for (const level of levels) {
  Object.defineProperty(RequestLogger.prototype, level, {
    value: function (this: RequestLogger, ...args: unknown[]) {
      if (this.writes(level)) ((this as unknown as { logger: Record<Level, LogMethod> }).logger[level] as LogMethod)(...args);
    },
  });
}

/** Fastify's childLoggerFactory: the request's logger, made lazily unless the route asks for its own level. */
export function requestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  if (options.level !== undefined) return logger.child(bindings, options);
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
