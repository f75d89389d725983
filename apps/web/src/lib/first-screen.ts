// What the first screen does not need (the live notifications' socket, the search dialog, a recording
// an earlier page left to send, a dashboard's chart) waits until that screen is drawn: its requests
// answered and the browser idle. On a phone's network, anything fetched earlier shares the bandwidth
// and the main thread with the screen itself. The waiting work then runs one piece at a time, each in
// an idle period of its own, so that no piece makes a long task of them all.

/** Quiet this long after the last answer: the screen draws it and may ask for more. */
const quietMs = 150;
/** However busy the page stays, the rest comes by then. */
const latestMs = 8000;

let inFlight = 0;
let asked = false;
let quietTimer: ReturnType<typeof setTimeout> | undefined;
let settle!: () => void;
const drawn = new Promise<void>((resolve) => (settle = resolve));
let queue: Promise<unknown> | null = null;

function whenIdle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof window.requestIdleCallback === 'function')
      window.requestIdleCallback(() => resolve(), { timeout: 2000 });
    else setTimeout(resolve, 200);
  });
}

/** Counts a request of the API client until the returned function is called. */
export function requestStarted(): () => void {
  asked = true;
  inFlight++;
  clearTimeout(quietTimer);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    inFlight--;
    if (inFlight === 0) quietTimer = setTimeout(() => inFlight === 0 && asked && settle(), quietMs);
  };
}

/**
 * Runs `work` once the first screen has drawn what it asked the server for, the work queued before it
 * has finished and the browser is idle; answers what `work` answers.
 */
export function afterFirstScreen<T>(work: () => Promise<T>): Promise<T> {
  if (!queue) {
    setTimeout(settle, latestMs);
    queue = drawn;
  }
  const done = queue.then(whenIdle).then(work);
  // The next piece waits for this one, whether it worked or not.
  queue = done.catch(() => undefined);
  return done;
}
