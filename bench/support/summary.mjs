// The one line each benchmark ends with, for `bench/all.mjs` (npm run bench) to gather into the
// README's table: `BENCH-SUMMARY {"bench": name, "rows": [...]}`. A row is one figure an issue set a
// goal for: its value, the baseline measured in the same run (or null), their ratio, the goal as text,
// and whether this run met it.
export const SUMMARY_PREFIX = 'BENCH-SUMMARY ';

export const round1 = (value) => Math.round(value * 10) / 10;
export const round2 = (value) => Math.round(value * 100) / 100;

/** @param {string} bench @param {Array<{figure: string, value: number, unit: string, baseline: number|null, baselineName: string|null, ratio: number|null, goal: string, met: boolean|null}>} rows */
export function printSummary(bench, rows) {
  console.log(`${SUMMARY_PREFIX}${JSON.stringify({ bench, rows })}`);
}
