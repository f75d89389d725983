// Live recordings nobody finishes — a closed tab, a crashed browser, a network that never came back —
// are stopped by the server with what they hold: every few seconds, those without a chunk for
// `recordingLimits.staleAfterSeconds` are claimed and made into files (live.ts sweep). Every server
// process sweeps; the claim (`recording → processing`, conditional) lets exactly one of them stop each.
import type { FastifyBaseLogger } from 'fastify';

interface Sweepable {
  sweep(): Promise<number>;
}

export function startSweeper(live: Sweepable, log: FastifyBaseLogger, everyMs: number) {
  let pass: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    // One pass at a time: a slow one (a long recording being made) is not overtaken by the next.
    if (pass) return;
    pass = live
      .sweep()
      .catch((error: unknown) => log.warn({ err: error }, 'the live recordings sweep failed; the next one tries again'))
      .finally(() => (pass = null));
  }, everyMs);
  timer.unref();
  return {
    /** Stops the timer and waits for a pass under way. */
    async stop() {
      clearInterval(timer);
      await pass;
    },
  };
}
