#!/usr/bin/env node
// Prints, from the JSON reports .ci/run asks Vitest and Playwright for, the slowest test files (and
// the slowest end-to-end tests), and every test that passed only on a retry: a retry hides a bug.
//   node scripts/slowest-tests.mjs <report.json>... [--top N]
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 10;
const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(7)} s`;
const name = (file) => relative(process.cwd(), file);

function vitest(report) {
  const files = report.testResults.map((file) => ({ file: name(file.name), ms: file.endTime - file.startTime, tests: file.assertionResults.length }));
  files.sort((a, b) => b.ms - a.ms);
  for (const file of files.slice(0, top)) console.log(`${seconds(file.ms)}  ${file.file} (${file.tests} tests)`);
  // The end of a CI log is what gets read: a failure must be named there, not only far above it.
  const failures = report.testResults.flatMap((file) => {
    const tests = file.assertionResults.filter((test) => test.status === 'failed');
    if (tests.length === 0 && file.status === 'failed') return [{ file: name(file.name), title: '(the file failed to run)', message: file.message }];
    return tests.map((test) => ({ file: name(file.name), title: test.fullName, message: test.failureMessages?.[0] }));
  });
  if (failures.length) {
    console.log('  failed:');
    for (const failure of failures) {
      console.log(`    ${failure.file}: ${failure.title}`);
      if (failure.message) console.log(`      ${failure.message.split('\n').slice(0, 3).join('\n      ')}`);
    }
  }
}

function playwright(report) {
  const tests = [];
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const ms = test.results.reduce((sum, result) => sum + result.duration, 0);
        tests.push({ file: spec.file ?? file, title: spec.title, line: spec.line, ms, status: test.status, retries: test.results.length - 1 });
      }
    }
    for (const child of suite.suites ?? []) walk(child, suite.file ?? file);
  };
  for (const suite of report.suites) walk(suite, suite.file);
  const files = new Map();
  for (const test of tests) files.set(test.file, (files.get(test.file) ?? 0) + test.ms);
  console.log('  files (the time of their tests, retries included):');
  for (const [file, ms] of [...files].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${seconds(ms)}  ${file}`);
  console.log('  tests:');
  for (const test of [...tests].sort((a, b) => b.ms - a.ms).slice(0, top)) console.log(`${seconds(test.ms)}  ${test.file}:${test.line} ${test.title}`);
  // A test run again only because another of its serial group failed still says "expected".
  const retried = tests.filter((test) => test.status === 'flaky' || test.status === 'unexpected');
  if (retried.length) {
    console.log('  failed, or passed only on a retry (a bug to find):');
    for (const test of retried) console.log(`    ${test.status === 'flaky' ? 'passed on a retry' : 'failed'}: ${test.file}:${test.line} ${test.title}`);
  }
}

for (const file of args) {
  if (!existsSync(file)) continue;
  console.log(`== slowest in ${name(file)}`);
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if (report.testResults) vitest(report);
  else if (report.suites) playwright(report);
}
