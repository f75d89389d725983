#!/usr/bin/env -S npx tsx
// Upload benchmark: a large WebM (1 GiB by default) uploaded to a session through
// the recording upload (apiRoutes.recordings.upload), streamed from disk as a browser's FormData
// would send it, against a plain copy of the same file on the same disk measured in the same run. It
// samples the server process's resident memory during the upload and prints, for both: the time,
// rate and CPU seconds, their ratio, and the server's memory growth. It never fails on time.
//
//   npx tsx bench/upload.mjs                 # 1 GiB
//   npx tsx bench/upload.mjs --size-mb 256 --rounds 2
//
// The file is a real WebM: the header of a MediaRecorder recording (test/fixtures/) followed by its
// clusters repeated, each copy's Timecode moved on, so the server's check of the bytes and its
// one-pass seekable writer (webm/write.ts writeSeekableWebm) do their real work on all of it. The server runs on PGlite with files
// under DATA_DIR/recordings (the default storage), in the same temporary directory as the copy.
//
// The upload's time is the request's, from its first byte to the 201: receiving the file into storage,
// made seekable on the way (its clusters written as they arrive, the Cues after them, the head patched
// in place), flushed, before the answer. "received" is
// when the last byte left the client (the server reads as it stores, so the socket's buffers are all
// that is ahead of it).
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { apiRoutes } from '../packages/contract/src/api-routes.ts';
import { pathOf } from '../packages/contract/src/endpoint.ts';
import { cpuSecondsOf, machine, optionValue, rssOf, sleep, startServer } from './support/server.mjs';
import { writeLargeWebm } from './support/webm-file.mjs';
import { printSummary } from './support/summary.mjs';

function parseArgs(argv) {
  const options = { sizeMb: 1024, rounds: 1 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--size-mb') options.sizeMb = Number(optionValue(argv, i++));
    else if (argv[i] === '--rounds') options.rounds = Number(optionValue(argv, i++));
    else throw new Error(`unknown option ${argv[i]}`);
  }
  for (const key of ['sizeMb', 'rounds']) {
    if (!Number.isInteger(options[key]) || options[key] < 1) throw new Error(`--${key === 'sizeMb' ? 'size-mb' : key} must be a positive whole number`);
  }
  return options;
}

const MiB = 1024 * 1024;

async function json(url, init = {}) {
  const response = await fetch(url, init);
  const body = await response.json();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${body.message}`);
  return body;
}

/** The demo teacher's token and the room of one of their sessions. */
async function teacherAndRoom(url) {
  const login = await json(`${url}${apiRoutes.auth.login.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'teacher@mooz.local', password: process.env.DEMO_PASSWORD ?? 'mooz-demo-123' }),
  });
  const token = login.data.access;
  const sessions = await json(`${url}${apiRoutes.sessions.list.path}`, { headers: { authorization: `Bearer ${token}` } });
  return { token, roomId: sessions.data[0].room_id };
}

/** Uploads `file` as the multipart field `recording`, streamed from disk; samples the server's RSS meanwhile. */
function upload(url, { token, roomId }, file, pid) {
  const boundary = `----moozbench${randomUUID().replaceAll('-', '')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="recording"; filename="${roomId}-1.webm"\r\nContent-Type: video/webm\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = statSync(file).size;
  const target = new URL(`${url}${pathOf(apiRoutes.recordings.upload, { roomId })}`);
  return new Promise((resolve, reject) => {
    const samples = [];
    const sampler = setInterval(() => samples.push(rssOf(pid)), 50);
    const started = process.hrtime.bigint();
    let received = null;
    const request = http.request(
      target,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + size + tail.length,
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => {
          clearInterval(sampler);
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          if (response.statusCode !== 201) return reject(new Error(`upload: ${response.statusCode} ${text}`));
          resolve({ seconds, receivedSeconds: received ?? seconds, samples, recording: JSON.parse(text).data });
        });
      },
    );
    request.on('error', (error) => {
      clearInterval(sampler);
      reject(error);
    });
    request.on('finish', () => (received = Number(process.hrtime.bigint() - started) / 1e9));
    request.write(head);
    const body = createReadStream(file, { highWaterMark: MiB });
    body.on('data', (chunk) => {
      if (!request.write(chunk)) {
        body.pause();
        request.once('drain', () => body.resume());
      }
    });
    body.on('end', () => request.end(tail));
    body.on('error', reject);
  });
}

/** A plain copy of the file beside it, read and written as streams, flushed to disk as the storage does. */
async function copy(file, dir) {
  const target = path.join(dir, `copy-${randomUUID()}.webm`);
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await pipeline(createReadStream(file, { highWaterMark: MiB }), createWriteStream(target, { flush: true }));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  rmSync(target);
  return { seconds, cpuSeconds: (used.user + used.system) / 1e6 };
}

const mb = (bytes) => bytes / MiB;
const rate = (bytes, seconds) => `${(mb(bytes) / seconds).toFixed(0)} MiB/s`;

async function main() {
  const options = parseArgs(process.argv.slice(2));
  console.log(`Upload benchmark: a ${options.sizeMb} MiB WebM, ${options.rounds} round(s), upload and plain copy alternating`);
  console.log(`machine: ${machine()}\n`);

  const dir = mkdtempSync(path.join(os.tmpdir(), 'mooz-bench-upload-'));
  const dataDir = path.join(dir, 'data');
  const file = path.join(dir, 'large.webm');
  let server = null;
  try {
    const made = await writeLargeWebm(file, options.sizeMb * MiB);
    console.log(`file: ${mb(made.bytes).toFixed(0)} MiB of WebM, the fixture's clusters ${made.loops} times (${(made.videoSeconds / 3600).toFixed(1)} h of video)`);
    server = await startServer({ dataDir, env: { MAX_RECORDING_MB: String(options.sizeMb * 2) } });
    const caller = await teacherAndRoom(server.url);

    // One small upload first, so code loaded on first use is not counted as growth.
    const small = path.join(dir, 'small.webm');
    await writeLargeWebm(small, 1);
    await upload(server.url, caller, small, server.pid);
    rmSync(small);

    const rows = [];
    for (let round = 0; round < options.rounds; round++) {
      const { seconds: copySeconds, cpuSeconds: copyCpu } = await copy(file, dir);
      await sleep(1000);
      const baseline = rssOf(server.pid);
      const cpuBefore = cpuSecondsOf(server.pid);
      const result = await upload(server.url, caller, file, server.pid);
      const serverCpu = cpuSecondsOf(server.pid) - cpuBefore;
      const peak = Math.max(baseline, ...result.samples.filter((s) => s !== null));
      rows.push({
        round: round + 1,
        // The machine's load (1 min) when the round ended: the figures are noisy when others load it.
        load: os.loadavg()[0].toFixed(1),
        'copy s': copySeconds.toFixed(2),
        'copy rate': rate(made.bytes, copySeconds),
        'copy CPU s': copyCpu.toFixed(1),
        'upload s': result.seconds.toFixed(2),
        'upload rate': rate(made.bytes, result.seconds),
        'upload ÷ copy': (result.seconds / copySeconds).toFixed(2),
        'received s': result.receivedSeconds.toFixed(2),
        'receive rate': rate(made.bytes, result.receivedSeconds),
        'server CPU s': serverCpu.toFixed(1),
        'RSS before MiB': mb(baseline).toFixed(0),
        'RSS growth MiB': mb(peak - baseline).toFixed(1),
        'stored MiB': mb(result.recording.size_bytes).toFixed(0),
        'duration s': result.recording.duration_seconds.toFixed(0),
      });
      // The next round starts with as much free disk as this one.
      await fetch(`${server.url}${pathOf(apiRoutes.recordings.remove, { id: result.recording.id })}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${caller.token}` },
      });
    }
    console.table(rows);
    console.log('goals: RSS growth < 100 MiB; upload within 2× the copy (upload ÷ copy ≤ 2)');
    // The summary takes each goal's worst round.
    const worst = (key) => rows.reduce((a, b) => (Number(b[key]) > Number(a[key]) ? b : a));
    const slowest = worst('upload ÷ copy');
    const hungriest = worst('RSS growth MiB');
    const sizeLabel = `${Math.round(mb(made.bytes))} MiB`;
    printSummary('upload', [
      {
        figure: `upload of a ${sizeLabel} recording, s`,
        value: Number(slowest['upload s']),
        unit: 's',
        baseline: Number(slowest['copy s']),
        baselineName: 'stream copy of the file on the same disk',
        ratio: Number(slowest['upload ÷ copy']),
        goal: '≤ 2 × the copy',
        met: Number(slowest['upload ÷ copy']) <= 2,
      },
      {
        figure: `server RSS growth during the upload, MiB`,
        value: Number(hungriest['RSS growth MiB']),
        unit: 'MiB',
        baseline: null,
        baselineName: null,
        ratio: null,
        goal: '< 100 MiB',
        met: Number(hungriest['RSS growth MiB']) < 100,
      },
    ]);
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
