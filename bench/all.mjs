// `npm run bench`: every benchmark, one after the other, then one table of the figures the issues set
// goals for: each figure, its baseline measured in the same run, the ratio, the goal and whether this
// run met it, with the machine it ran on. Each benchmark prints its own detail as it goes and ends
// with a BENCH-SUMMARY line (bench/support/summary.mjs), which this script gathers. The table also
// replaces the one between the markers in the README (`--no-readme` leaves the README alone).
// PostgreSQL joins the API and search benchmarks when DATABASE_URL is set or 127.0.0.1:5432 answers.
//
//   node bench/all.mjs [--only api,search [--readme]] [--no-readme]
// A run of some (--only) leaves the README alone unless --readme asks; its table then says what ran.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SUMMARY_PREFIX } from './support/summary.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1].split(',') : null;
const writeReadme = !argv.includes('--no-readme') && (!only || argv.includes('--readme'));

function answers(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });
}

const postgres = process.env.DATABASE_URL ?? ((await answers(5432)) ? 'postgres://postgres@127.0.0.1:5432/postgres' : null);
const withPostgres = postgres ? ['--postgres', postgres] : [];

/** name, then the command; tsx for those that import the server's TypeScript. */
const benches = [
  ['bundle', ['node', 'bench/bundle.mjs']],
  ['signalling', ['npx', 'tsx', 'bench/signalling.mjs']],
  ['api', ['npx', 'tsx', 'bench/api.mjs', ...withPostgres]],
  ['search', ['npx', 'tsx', 'bench/search.mjs', ...withPostgres]],
  ['dashboard', ['npx', 'tsx', 'bench/dashboard.mjs', ...(postgres ? withPostgres : ['--no-postgres'])]],
  ['first-frame', ['npx', 'tsx', 'bench/first-frame.mjs', '--no-build', '--web-dist', 'apps/web/dist', '--runs', '5']],
  // Lighthouse's mobile profile on /login, /courses and /dashboard of the build, three runs each.
  ['lighthouse', ['npx', 'tsx', 'bench/lighthouse.mjs', '--web-dist', 'apps/web/dist', '--runs', '3']],
  ['upload', ['npx', 'tsx', 'bench/upload.mjs']],
  // Needs root and janus for its SFU half (a Janus in a network namespace); prints why when it cannot.
  ['class-scale', ['npx', 'tsx', 'bench/class-scale.mjs']],
].filter(([name]) => !only || only.includes(name));

/** Runs one benchmark with its output passed through; resolves to its summary (or what went wrong). */
function run(name, [command, ...args]) {
  return new Promise((resolve) => {
    console.log(`\n=== ${name}: ${[command, ...args].join(' ')}\n`);
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let summary = null;
    let pending = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) if (line.startsWith(SUMMARY_PREFIX)) summary = JSON.parse(line.slice(SUMMARY_PREFIX.length));
    });
    child.on('close', (code) => resolve(summary ?? { bench: name, failed: `exited with code ${code} and no summary` }));
  });
}

const startedAt = new Date();
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const machineLine = `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${postgres ? 'PostgreSQL at ' + new URL(postgres).host : 'no PostgreSQL'}`;
const loads = [os.loadavg()[0]];
const summaries = [];
for (const [name, command] of benches) {
  summaries.push(await run(name, command));
  loads.push(os.loadavg()[0]);
}

const number = (value) => (value === null || value === undefined ? '—' : Number(value).toLocaleString('en-US', { maximumFractionDigits: 2 }));
const lines = [
  `Run ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machineLine}; load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}${only ? `; only ${only.join(', ')}` : ''}.`,
  '',
  '| bench | figure | value | in-run baseline | ratio | goal | met |',
  '|---|---|---|---|---|---|---|',
];
for (const summary of summaries) {
  if (summary.failed) {
    lines.push(`| ${summary.bench} | ${summary.failed} | — | — | — | — | no |`);
    continue;
  }
  for (const row of summary.rows) {
    const baseline = row.baseline === null ? '—' : `${number(row.baseline)} ${row.unit} (${row.baselineName})`;
    const met = row.met === null ? '—' : row.met ? 'yes' : '**no**';
    lines.push(`| ${summary.bench} | ${row.figure} | ${number(row.value)} ${row.unit} | ${baseline} | ${row.ratio === null ? '—' : '×' + number(row.ratio)} | ${row.goal} | ${met} |`);
  }
}
const table = lines.join('\n');
console.log(`\n=== all benchmarks\n\n${table}\n`);

if (writeReadme) {
  const readmePath = path.join(root, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const start = '<!-- bench-table:start -->';
  const end = '<!-- bench-table:end -->';
  const at = readme.indexOf(start);
  const until = readme.indexOf(end);
  if (at === -1 || until === -1) console.log('README has no bench-table markers: not updated.');
  else {
    writeFileSync(readmePath, `${readme.slice(0, at + start.length)}\n${table}\n${readme.slice(until)}`);
    console.log('README.md: the table between the bench-table markers is this run\'s.');
  }
}
