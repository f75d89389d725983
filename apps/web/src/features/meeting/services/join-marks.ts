// Performance marks along the way from Join to the first remote frame ("mooz:<step>"), read by
// bench/first-frame.mjs to say where the time goes; a browser's performance panel shows them too.
// They cost next to nothing and change no behaviour.

const prefix = 'mooz:';

export function joinMark(step: string) {
  try {
    performance.mark(prefix + step);
  } catch {
    // No User Timing (an old browser, a test environment): nothing to record.
  }
}

/** Forgets the marks of an earlier meeting in this tab, so each join's timeline starts clean. */
export function clearJoinMarks() {
  try {
    for (const entry of performance.getEntriesByType('mark')) if (entry.name.startsWith(prefix)) performance.clearMarks(entry.name);
  } catch {
    // As above.
  }
}
