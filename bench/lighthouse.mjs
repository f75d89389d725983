#!/usr/bin/env -S npx tsx
// Lighthouse on a phone: its default mobile profile (simulated slow 4G, 4× CPU slowdown) on
// the production build as the project's server sends it, for the pages people open first: /login, and
// signed in as the demo student /courses and /dashboard. Each page is measured --runs times (3) and the
// median run is reported, beside an in-run baseline: a minimal page (one small script that draws a
// heading) served by the same server in the same way (its own WEB_DIST), so the figures can be read
// against what this machine and this server give at best. Prints the machine's load before and after.
//
//   npx tsx bench/lighthouse.mjs [--web-dist apps/web/dist] [--runs 3] [--save /tmp/lh] [--only /login]
//   --save writes each run's Lighthouse report (JSON) there: the treemap, bootup-time, long tasks and
//   network requests audits are where the start-up time goes.
//
// Signed-in pages start with the session in local storage, as the app leaves it after a login
// (e2e/support/signed-in.ts), set by a script that runs before the page's own.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { storageKeys } from '@mooz/contract/config';
import { logInAt } from '../e2e/support/signed-in.ts';
import { machine, optionValue, root, startServer } from './support/server.mjs';
import { printSummary, round1, round2 } from './support/summary.mjs';

const options = { webDist: path.join(root, 'apps/web/dist'), runs: 3, save: '', only: null, chromium: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i];
  const value = () => optionValue(argv, i++);
  if (arg === '--web-dist') options.webDist = path.resolve(root, value());
  else if (arg === '--runs') options.runs = Number(value());
  else if (arg === '--save') options.save = path.resolve(value());
  else if (arg === '--only') options.only = value().split(',');
  else if (arg === '--chromium') options.chromium = value();
  else throw new Error(`unknown option ${arg}`);
}
if (!Number.isInteger(options.runs) || options.runs < 1) throw new Error('--runs must be a positive whole number');

// The web's "good" thresholds, which are our goals.
const goals = { score: 90, lcp: 2500, tbt: 200, jsFiles: 12, jsRoundTrips: 2 };

// The baseline: what a page costs here when it is nothing but a heading drawn by one small module.
const minimalDist = mkdtempSync(path.join(os.tmpdir(), 'mooz-lh-minimal-'));
mkdirSync(path.join(minimalDist, 'assets'));
writeFileSync(
  path.join(minimalDist, 'index.html'),
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="description" content="A minimal page"><title>Minimal</title><script type="module" src="/assets/minimal-0000.js"></script></head>' +
    '<body><div id="root"></div></body></html>',
);
writeFileSync(
  path.join(minimalDist, 'assets/minimal-0000.js'),
  "const h = document.createElement('h1'); h.textContent = 'Sign in to Mooz'; document.getElementById('root').append(h);\n",
);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/**
 * The JavaScript a run fetched, and in how many round trips after the document: a script is one round
 * trip after the latest script that had arrived before the page asked for it (the renderer's start
 * time, so a request queued behind the browser's six connections still counts where it was asked).
 */
function scriptFacts(lhr) {
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  const scripts = requests
    .filter((request) => request.resourceType === 'Script' && !request.url.startsWith('data:'))
    .sort((a, b) => a.rendererStartTime - b.rendererStartTime);
  const trips = [];
  for (const script of scripts) {
    const before = scripts.filter((other, index) => index < trips.length && other.networkEndTime <= script.rendererStartTime);
    trips.push(1 + Math.max(0, ...before.map((other) => trips[scripts.indexOf(other)])));
  }
  const transfer = scripts.reduce((total, request) => total + (request.transferSize ?? 0), 0);
  return { jsFiles: scripts.length, jsRoundTrips: Math.max(0, ...trips), jsTransferKb: transfer / 1024 };
}

function figures(lhr) {
  const audit = (id) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    tti: audit('interactive'),
    bootup: audit('bootup-time'),
    ...scriptFacts(lhr),
  };
}

const chrome = await chromeLauncher.launch({
  chromePath: options.chromium,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
const ours = await startServer({ env: { WEB_DIST: options.webDist } });
const minimal = await startServer({ env: { WEB_DIST: minimalDist } });

async function measure(label, url, session) {
  const runs = [];
  for (let run = 0; run < options.runs; run++) {
    const page = await browser.newPage();
    if (session) {
      await page.evaluateOnNewDocument(
        (keys, session) => {
          try {
            if (location.protocol !== 'http:') return;
            localStorage.setItem(keys.access, session.access);
            localStorage.setItem(keys.refresh, session.refresh);
            localStorage.setItem(keys.user, JSON.stringify({ ...session.summary, ...session.user }));
          } catch {
            // about:blank, between runs
          }
        },
        storageKeys,
        session,
      );
    }
    let lhr;
    // A trace without its navigation start (NO_NAVSTART) now and then on a loaded machine: tried again.
    for (let attempt = 1; ; attempt++) {
      lhr = (await lighthouse(url, { logLevel: 'error', output: 'json', onlyCategories: ['performance'] }, undefined, page)).lhr;
      if (!lhr.runtimeError || attempt === 3) break;
      console.log(`  ${label} run ${run + 1}: ${lhr.runtimeError.code}, trying again`);
    }
    await page.close();
    if (lhr.runtimeError) throw new Error(`${label}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (session && new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) {
      throw new Error(`${label}: ended on ${lhr.finalDisplayedUrl}, not signed in?`);
    }
    if (options.save) {
      mkdirSync(options.save, { recursive: true });
      writeFileSync(path.join(options.save, `${label.replace(/\W+/g, '_')}-${run + 1}.json`), JSON.stringify(lhr));
    }
    const each = figures(lhr);
    console.log(
      `  ${label} run ${run + 1}: score ${each.score}, FCP ${Math.round(each.fcp)} ms, LCP ${Math.round(each.lcp)} ms, TBT ${Math.round(each.tbt)} ms, ` +
        `TTI ${Math.round(each.tti)} ms, script ${Math.round(each.bootup)} ms, ${each.jsFiles} JS files (${each.jsTransferKb.toFixed(1)} KB) in ${each.jsRoundTrips} round trips; load ${os.loadavg()[0].toFixed(2)}`,
    );
    runs.push(each);
  }
  // The median run by score (its own figures, not a mix of runs), and the median of each figure.
  const byScore = [...runs].sort((a, b) => a.score - b.score)[Math.floor(runs.length / 2)];
  const medians = Object.fromEntries(Object.keys(runs[0]).map((key) => [key, median(runs.map((each) => each[key]))]));
  return { label, medianRun: byScore, medians };
}

const results = [];
const loadBefore = os.loadavg();
console.log(`machine: ${machine()}; Lighthouse ${lighthouse.version ?? '12.2.3'} mobile (simulated slow 4G, 4× CPU), ${options.runs} runs each`);
console.log(`web build: ${options.webDist === path.join(root, 'apps/web/dist') ? 'apps/web/dist' : options.webDist}`);
try {
  const student = await logInAt(ours.url, 'student@mooz.local');
  const pages = [
    ['baseline (minimal page)', `${minimal.url}/`, null],
    ['/login', `${ours.url}/login`, null],
    ['/courses', `${ours.url}/courses`, student],
    ['/dashboard', `${ours.url}/dashboard`, student],
  ].filter(([label]) => !options.only || label.startsWith('baseline') || options.only.includes(label));
  for (const [label, url, session] of pages) results.push(await measure(label, url, session));
} finally {
  await browser.disconnect();
  chrome.kill();
  await ours.stop();
  await minimal.stop();
  rmSync(minimalDist, { recursive: true, force: true });
}
const loadAfter = os.loadavg();

console.log('');
console.log(`load average (1, 5, 15 min): before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`);
console.log('medians of each figure:');
console.log('  page                      score   FCP ms   LCP ms   TBT ms   TTI ms  script ms  JS files  JS KB  JS round trips');
for (const { label, medians: m } of results) {
  console.log(
    `  ${label.padEnd(24)} ${String(m.score).padStart(6)} ${String(Math.round(m.fcp)).padStart(8)} ${String(Math.round(m.lcp)).padStart(8)} ${String(Math.round(m.tbt)).padStart(8)} ${String(Math.round(m.tti)).padStart(8)} ${String(Math.round(m.bootup)).padStart(10)} ${String(m.jsFiles).padStart(9)} ${m.jsTransferKb.toFixed(1).padStart(6)} ${String(m.jsRoundTrips).padStart(15)}`,
  );
}

const baseline = results.find((result) => result.label.startsWith('baseline')).medians;
const rows = [];
for (const { label, medians: m } of results) {
  if (label.startsWith('baseline')) continue;
  rows.push(
    { figure: `${label} performance score (mobile)`, value: m.score, unit: '', baseline: baseline.score, baselineName: 'minimal page', ratio: round2(m.score / baseline.score), goal: `≥ ${goals.score}`, met: m.score >= goals.score },
    { figure: `${label} largest contentful paint`, value: Math.round(m.lcp), unit: 'ms', baseline: Math.round(baseline.lcp), baselineName: 'minimal page', ratio: round1(m.lcp / baseline.lcp), goal: `≤ ${goals.lcp} ms`, met: m.lcp <= goals.lcp },
    { figure: `${label} total blocking time`, value: Math.round(m.tbt), unit: 'ms', baseline: Math.round(baseline.tbt), baselineName: 'minimal page', ratio: baseline.tbt > 0 ? round1(m.tbt / baseline.tbt) : null, goal: `≤ ${goals.tbt} ms`, met: m.tbt <= goals.tbt },
  );
  if (label === '/login') {
    rows.push(
      { figure: '/login JavaScript files', value: m.jsFiles, unit: 'files', baseline: baseline.jsFiles, baselineName: 'minimal page', ratio: null, goal: `≤ ${goals.jsFiles}`, met: m.jsFiles <= goals.jsFiles },
      { figure: '/login JavaScript round trips after the HTML', value: m.jsRoundTrips, unit: '', baseline: baseline.jsRoundTrips, baselineName: 'minimal page', ratio: null, goal: `≤ ${goals.jsRoundTrips}`, met: m.jsRoundTrips <= goals.jsRoundTrips },
    );
  }
}
printSummary('lighthouse', rows);
