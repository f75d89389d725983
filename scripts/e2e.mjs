#!/usr/bin/env node
// The end-to-end suite in two runs of Playwright: the `pages` project on both workers, then the
// `live-classes` project, one meeting at a time with the machine to itself (playwright.config.ts says
// why). Both run whatever the first failed; the exit status is the worse. Arguments go to both runs; a
// JSON report named by PLAYWRIGHT_JSON_OUTPUT_NAME is written per run, as <name>-pages.json and
// <name>-live-classes.json.
//   node scripts/e2e.mjs [playwright test arguments]
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const report = process.env.PLAYWRIGHT_JSON_OUTPUT_NAME;
let status = 0;
const took = [];
for (const project of ['pages', 'live-classes']) {
  const env = { ...process.env };
  if (report) env.PLAYWRIGHT_JSON_OUTPUT_NAME = report.replace(/(\.json)?$/, `-${project}.json`);
  if (project === 'pages') env.MOOZ_E2E_WITHOUT_JANUS = '1';
  // The meetings run one at a time: one worker, one server, and no short-token server (playwright.config.ts).
  if (project === 'live-classes') Object.assign(env, { MOOZ_E2E_WORKERS: '1', MOOZ_E2E_WITHOUT_SHORT_SERVER: '1' });
  console.log(`\n== end-to-end: ${project}`);
  const start = performance.now();
  const run = spawnSync('npx', ['playwright', 'test', `--project=${project}`, '--pass-with-no-tests', ...args], { stdio: 'inherit', env });
  status = Math.max(status, run.status ?? 1);
  took.push(`${project} ${Math.round((performance.now() - start) / 1000)} s${run.status === 0 ? '' : ' (failed)'}`);
}
console.log(`\n== end-to-end took: ${took.join(', ')}`);
process.exit(status);
