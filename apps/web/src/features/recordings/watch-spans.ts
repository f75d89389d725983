// The stretches of a recording the viewer actually played, from the video's own events: each
// `timeupdate` of contiguous playback extends the current span, a seek ends it (the next time reported
// starts a new one). The server merges the spans into a union, so re-watching adds nothing there; this
// only has to say truthfully what was played since the last report.
import { recordingLimits } from '@mooz/contract/recordings';

type Span = [from: number, to: number];

/**
 * Between two `timeupdate`s of playback the time moves by about a quarter of a second, times the speed;
 * a busy machine or a background tab reports less often, but the video still cannot move faster than
 * the clock times the speed. A forward step larger than that (plus this much slack) with no `seeking`
 * in between is not playback (a stall skipped, a source swapped), so it starts a new span rather than
 * counting the gap as watched.
 */
export const slackSeconds = 1;

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

export class WatchSpans {
  /** Spans closed and not yet reported, oldest first. */
  private closed: Span[] = [];
  /** The span being played, or null after a seek (and before the first time). */
  private current: Span | null = null;

  /** When (ms, any monotonic clock) the current span's end was reported. */
  private reportedAt = 0;

  /** The video reported `time` (timeupdate) at `now` (ms), playing at `rate`. */
  played(time: number, now: number, rate = 1): void {
    if (!Number.isFinite(time) || time < 0) return;
    const current = this.current;
    const possible = (Math.max(0, now - this.reportedAt) / 1000) * Math.max(rate, 0) + slackSeconds;
    this.reportedAt = now;
    if (current && time >= current[1] && time - current[1] <= possible) {
      current[1] = time;
      return;
    }
    // Backwards (a loop, a restart) or a jump: what was played so far is one span, this starts another.
    this.close();
    this.current = [time, time];
  }

  /** The viewer moved the playhead (seeking): the current span ends where it was. */
  seeked(): void {
    this.close();
  }

  private close(): void {
    if (this.current && this.current[1] > this.current[0]) this.closed.push(this.current);
    this.current = null;
  }

  /** Whether anything was played since the last `take()`. */
  get pending(): boolean {
    return this.closed.length > 0 || (this.current !== null && this.current[1] > this.current[0]);
  }

  /**
   * The spans played since the last call (at most one report's worth, the rest stays for the next), and
   * from now on only what is played after this moment. Playback carries on in a span that starts here.
   */
  take(max: number = recordingLimits.progressMaxSpans): Span[] {
    if (this.current && this.current[1] > this.current[0]) {
      this.closed.push([this.current[0], this.current[1]]);
      this.current = [this.current[1], this.current[1]];
    }
    const taken = this.closed.slice(0, max);
    this.closed = this.closed.slice(max);
    return taken.map(([from, to]) => [round(from), round(to)]);
  }

  /** Spans a report failed to deliver go back, to be sent with the next one. */
  giveBack(spans: Span[]): void {
    this.closed = [...spans, ...this.closed];
  }
}
