// A metronome for the recording's composer while its tab is hidden: the page's own requestAnimationFrame
// stops in a background tab and its timers are throttled to once a second (or once a minute), but a
// dedicated worker's timers keep time. It posts an empty message every `interval` ms it is sent (0 stops).
let timer: ReturnType<typeof setInterval> | undefined;

self.onmessage = (event: MessageEvent<number>) => {
  clearInterval(timer);
  timer = undefined;
  if (event.data > 0) timer = setInterval(() => self.postMessage(0), event.data);
};
