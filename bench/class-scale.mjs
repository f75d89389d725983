#!/usr/bin/env -S npx tsx
// Class-scale benchmark: what one Janus SFU costs per student, against the peer-to-peer mesh
// it replaces, in one run. It never fails on time or on a goal: it prints, and exits 0.
//
//   SFU   a throwaway Janus (Debian's janus, VideoRoom) in a network namespace of its own, joined to
//         this machine by a veth pair (apps/server/test/janus-namespace.ts: Janus gathers no ICE
//         candidates on loopback; needs root). A room made through JanusConnection as our server makes
//         them. The teacher: Chromium's fake camera at 1280×720, published once with three simulcast
//         layers (rids l/m/h, a quarter, a half and all of the resolution, 200/500/1300 kbps: the
//         2000 kbps budget split as services/sfu-link.ts splits it). The students: N werift
//         RTCPeerConnections in this process (pure TypeScript WebRTC: ICE, DTLS, SRTP, NACK; no
//         decoding), each in a Janus session of its own on one WebSocket connection, as the server
//         holds them; one asks for the high layer (a pinned teacher), the others the low one
//         (thumbnails). They join at a steady pace (--join-rate, 10/s) and the room grows 0 → 10 → 25
//         → 50 → 100, measured for --window seconds at each size: Janus's CPU from /proc/<pid>/stat,
//         each student's received RTP (bytes with headers, packets, loss from the sequence numbers
//         after NACK repair), and each join's time from the join request to its first RTP packet
//         (Janus forwards a layer from a keyframe on, so that packet starts the first frame).
//   mesh  3, 4 and 5 Chromium browsers (one per person, as laptops are), each with the fake camera at
//         1280×720, every pair joined by a plain RTCPeerConnection (signalling done here through
//         page.evaluate), each sender capped at the mesh's share of the budget (videoBitrateKbps:
//         2000/(n-1) kbps) and every remote video playing in a <video>: each person's CPU (the
//         browser's renderer processes, where WebRTC encodes and decodes, and the whole browser) and
//         upload (outbound-rtp bytesSent) over the window.
//
//   npx tsx bench/class-scale.mjs [--sizes 10,25,50,100] [--mesh 3,4,5] [--window 10] [--join-rate 10]
//                                 [--no-sfu] [--no-mesh] [--chromium /usr/bin/chromium]
//
// All media stays on this machine (the veth and loopback); the namespace, Janus and every browser are
// removed at the end, also after a failure or Ctrl+C.
import { createServer } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { RTCPeerConnection as WeriftPeerConnection } from 'werift';
import { limits } from '../packages/contract/src/limits.ts';
import { videoBitrateKbps } from '../packages/contract/src/realtime.ts';
import { JanusConnection } from '../apps/server/src/sfu/janus-api.ts';
import { janusBinary } from '../apps/server/src/sfu/janus-process.ts';
import { startJanusInNamespace } from '../apps/server/test/janus-namespace.ts';
import { machine, optionValue, percentile, sleep } from './support/server.mjs';
import { printSummary, round2 } from './support/summary.mjs';

const startedAt = performance.now();

function parseArgs(argv) {
  const options = {
    sizes: [10, 25, 50, 100],
    mesh: [3, 4, 5],
    windowS: 10,
    joinRate: 10,
    sfu: true,
    meshOn: true,
    chromium: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  };
  const list = (text) => text.split(',').map(Number);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => optionValue(argv, i++);
    if (arg === '--sizes') options.sizes = list(value());
    else if (arg === '--mesh') options.mesh = list(value());
    else if (arg === '--window') options.windowS = Number(value());
    else if (arg === '--join-rate') options.joinRate = Number(value());
    else if (arg === '--no-sfu') options.sfu = false;
    else if (arg === '--no-mesh') options.meshOn = false;
    else if (arg === '--chromium') options.chromium = value();
    else throw new Error(`unknown option ${arg}`);
  }
  const sorted = (values) => [...values].sort((a, b) => a - b);
  options.sizes = sorted(options.sizes);
  options.mesh = sorted(options.mesh);
  for (const n of [...options.sizes, ...options.mesh])
    if (!Number.isInteger(n) || n < 1) throw new Error('sizes must be positive whole numbers');
  if (!(options.windowS > 0) || !(options.joinRate > 0)) throw new Error('--window and --join-rate must be positive');
  return options;
}

// --- CPU from /proc --------------------------------------------------------------------------------

const TICKS_PER_S = 100;

/** utime + stime of one process (all its threads), in clock ticks; null once it is gone. */
function ticksOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** Every process on the machine as pid -> parent pid. */
function parents() {
  const map = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      map.set(Number(name), Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ').at(-1).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  return map;
}

/** `pid` and all its descendants, each with whether it is a Chromium renderer. */
function processTree(pid) {
  const map = parents();
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of map) if (parent === tree[i]) tree.push(child);
  return tree.map((p) => {
    let renderer = false;
    try {
      renderer = readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('--type=renderer');
    } catch {
      // gone
    }
    return { pid: p, renderer };
  });
}

/** A CPU meter over a process tree: start() then stop() gives {renderer, total} in cores. */
function treeMeter(rootPid) {
  let start = null;
  const read = () =>
    new Map(processTree(rootPid).map(({ pid, renderer }) => [pid, { renderer, ticks: ticksOf(pid) ?? 0 }]));
  return {
    start() {
      start = { at: performance.now(), ticks: read() };
    },
    stop() {
      const end = read();
      const seconds = (performance.now() - start.at) / 1000;
      let renderer = 0;
      let total = 0;
      for (const [pid, { renderer: isRenderer, ticks }] of end) {
        const used = ticks - (start.ticks.get(pid)?.ticks ?? 0);
        total += used;
        if (isRenderer) renderer += used;
      }
      return { renderer: renderer / TICKS_PER_S / seconds, total: total / TICKS_PER_S / seconds };
    },
  };
}

/** The janus process itself: `ip netns exec` execs it, but look under it should it ever fork. */
function janusPid(pid) {
  const comm = (p) => {
    try {
      return readFileSync(`/proc/${p}/comm`, 'utf8').trim();
    } catch {
      return '';
    }
  };
  if (comm(pid) === 'janus') return pid;
  return processTree(pid).find(({ pid: p }) => comm(p) === 'janus')?.pid ?? pid;
}

/** Chromium, with the pid of its browser process (a child of this process: playwright-core launches it). */
async function launchChromium(path) {
  const before = new Set([...parents()].filter(([, parent]) => parent === process.pid).map(([pid]) => pid));
  const browser = await chromium.launch({
    executablePath: path,
    // Our own handlers close everything in order (Playwright's would exit before Janus is stopped).
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: [
      '--no-sandbox',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      '--disable-gpu',
      '--disable-background-networking',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  const pid = [...parents()].find(([child, parent]) => parent === process.pid && !before.has(child))?.[0];
  if (!pid) throw new Error('could not find the Chromium process just launched');
  return { browser, pid };
}

// --- the pages ---------------------------------------------------------------------------------------

/** What every page runs: the camera at 720p, peer connections, and their send statistics. */
const pageScript = `
  window.camera = async () => {
    window.stream = await navigator.mediaDevices.getUserMedia({ audio: false, video: { width: 1280, height: 720, frameRate: 30 } });
    const { width, height, frameRate } = window.stream.getVideoTracks()[0].getSettings();
    return { width, height, frameRate };
  };
  window.pcs = {};
  const gathered = (pc) => new Promise((resolve) => {
    if (pc.iceGatheringState === 'complete') return resolve();
    const timer = setTimeout(resolve, 5000);
    pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && (clearTimeout(timer), resolve()));
  });
  // The SFU teacher: one sendonly video with the simulcast layers; the offer once its candidates are in.
  window.publish = async (sendEncodings) => {
    const pc = (window.pcs.sfu = new RTCPeerConnection({ iceServers: [] }));
    pc.addTransceiver(window.stream.getVideoTracks()[0], { direction: 'sendonly', streams: [window.stream], sendEncodings });
    await pc.setLocalDescription();
    await gathered(pc);
    return pc.localDescription.sdp;
  };
  // The mesh: one connection per other person (our camera added as services/mesh.ts adds it), theirs played.
  const meshPc = (peer) => {
    const pc = (window.pcs[peer] = new RTCPeerConnection({ iceServers: [] }));
    pc.addTrack(window.stream.getVideoTracks()[0], window.stream);
    pc.ontrack = ({ track }) => {
      const video = document.createElement('video');
      Object.assign(video, { autoplay: true, muted: true, playsInline: true, width: 320, height: 180 });
      video.srcObject = new MediaStream([track]);
      document.body.append(video);
    };
    return pc;
  };
  window.offer = async (peer) => {
    const pc = meshPc(peer);
    await pc.setLocalDescription();
    await gathered(pc);
    return pc.localDescription.sdp;
  };
  window.answer = async (peer, sdp) => {
    const pc = meshPc(peer);
    await pc.setRemoteDescription({ type: 'offer', sdp });
    await pc.setLocalDescription();
    await gathered(pc);
    return pc.localDescription.sdp;
  };
  // Each sender capped at the mesh's share of the budget, as services/mesh.ts does once a link is up.
  window.cap = async (kbps) => {
    for (const pc of Object.values(window.pcs)) {
      for (const sender of pc.getSenders()) {
        const parameters = sender.getParameters();
        if (!parameters.encodings?.length) continue;
        parameters.encodings[0].maxBitrate = kbps * 1000;
        await sender.setParameters(parameters);
      }
    }
  };
  window.accept = (peer, sdp) => window.pcs[peer].setRemoteDescription({ type: 'answer', sdp });
  window.connected = () => Object.values(window.pcs).every((pc) => pc.connectionState === 'connected');
  // Per outbound stream (a simulcast layer or a mesh link): bytes sent, resolution, rate, what limits it;
  // and the frames decoded from the others.
  window.sendStats = async () => {
    const out = [];
    let decoded = 0;
    for (const [name, pc] of Object.entries(window.pcs)) {
      for (const report of (await pc.getStats()).values()) {
        if (report.type === 'outbound-rtp' && report.kind === 'video')
          out.push({ link: name, rid: report.rid ?? null, bytesSent: report.bytesSent, framesEncoded: report.framesEncoded ?? 0,
            width: report.frameWidth ?? 0, height: report.frameHeight ?? 0, limit: report.qualityLimitationReason ?? 'none' });
        if (report.type === 'inbound-rtp' && report.kind === 'video') decoded += report.framesDecoded ?? 0;
      }
    }
    return { out, decoded };
  };
`;

async function startPageServer() {
  const html = `<!doctype html><meta charset="utf-8"><title>class-scale</title><body><script>${pageScript}</script></body>`;
  const http = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(html);
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${http.address().port}/`, stop: () => new Promise((resolve) => http.close(resolve)) };
}

/**
 * Upload over a window from two sendStats() readings: kbps in total, and per layer or link (with the
 * frames it encoded a second).
 */
function uploadBetween(before, after, seconds) {
  const key = (stream) => `${stream.link}/${stream.rid ?? ''}`;
  const earlier = new Map(before.out.map((stream) => [key(stream), stream]));
  const streams = after.out.map((stream) => ({
    ...stream,
    kbps: ((stream.bytesSent - (earlier.get(key(stream))?.bytesSent ?? 0)) * 8) / seconds / 1000,
    fps: (stream.framesEncoded - (earlier.get(key(stream))?.framesEncoded ?? 0)) / seconds,
  }));
  return { kbps: streams.reduce((sum, stream) => sum + stream.kbps, 0), streams };
}

/**
 * Waits for the pages' upload to ramp up (the bandwidth estimate starts near 300 kbps): until every page
 * sends at least 85 % of `targetKbps`, or its upload has levelled off (three 2 s samples within 10 %;
 * a simple picture needs less than the cap), or `maxMs`. Resolves to each page's last sample, and how
 * long it took.
 */
async function rampUp(pages, targetKbps, maxMs = 20_000) {
  const started = performance.now();
  const history = pages.map(() => []);
  let last = await Promise.all(pages.map((page) => page.evaluate(() => window.sendStats())));
  for (;;) {
    await sleep(2000);
    const now = await Promise.all(pages.map((page) => page.evaluate(() => window.sendStats())));
    const uploads = now.map((stats, i) => uploadBetween(last[i], stats, 2));
    last = now;
    uploads.forEach((upload, i) => history[i].push(upload.kbps));
    const level = (kbps) => kbps.length >= 3 && Math.max(...kbps.slice(-3)) <= 1.1 * Math.min(...kbps.slice(-3));
    const seconds = Math.round((performance.now() - started) / 1000);
    const done = uploads.every((upload, i) => upload.kbps >= 0.85 * targetKbps || level(history[i]));
    if (done || performance.now() - started > maxMs) return Object.assign(uploads, { seconds });
  }
}

const describeStream = (stream) =>
  `${stream.rid ?? stream.link} ${stream.width}x${stream.height}@${Math.round(stream.fps)} ${Math.round(stream.kbps)} kbps${stream.limit !== 'none' ? ` (limited: ${stream.limit})` : ''}`;

// --- the SFU -----------------------------------------------------------------------------------------

/** The camera's layers as services/sfu-link.ts sends them: lowest first, within the video budget. */
const budget = limits.videoBitrateBudgetKbps * 1000;
const CAMERA_LAYERS = [
  { rid: 'l', scaleResolutionDownBy: 4, maxBitrate: Math.round(budget * 0.1) },
  { rid: 'm', scaleResolutionDownBy: 2, maxBitrate: Math.round(budget * 0.25) },
  { rid: 'h', scaleResolutionDownBy: 1, maxBitrate: Math.round(budget * 0.65) },
];
/** As janus-pool.ts creates rooms (its REMB cap on each publisher). */
const PUBLISHER_BITRATE = 2_100_000;
const SUBSTREAM = { low: 0, high: 2 };

/**
 * One student: a Janus session and subscriber handle, a werift peer connection answering Janus's offer,
 * and what arrives on it. `join()` resolves once the answer is sent; `firstPacketAt` follows.
 */
class Subscriber {
  constructor(index, layer) {
    this.index = index;
    this.layer = layer;
    this.pc = null;
    this.session = null;
    this.joinAt = null;
    this.firstPacketAt = null;
    this.packets = 0;
    this.bytes = 0;
    this.highestSeq = null;
    this.error = null;
  }

  onRtp(rtp) {
    const now = performance.now();
    if (this.firstPacketAt === null) this.firstPacketAt = now;
    this.packets += 1;
    this.bytes += rtp.serializeSize;
    const seq = rtp.header.sequenceNumber;
    if (this.highestSeq === null) this.highestSeq = seq;
    else {
      const ahead = (seq - (this.highestSeq & 0xffff) + 0x10000) % 0x10000;
      if (ahead < 0x8000) this.highestSeq += ahead; // else a late or repeated packet
    }
  }

  snapshot() {
    return { at: performance.now(), packets: this.packets, bytes: this.bytes, highestSeq: this.highestSeq };
  }

  async join(connection, room, feed, hostAddress) {
    this.session = await connection.createSession();
    const handle = await this.session.attach();
    this.pc = new WeriftPeerConnection({
      iceServers: [],
      iceUseIpv6: false,
      iceInterfaceAddresses: { udp4: hostAddress },
    });
    this.pc.onTrack.subscribe((track) => {
      if (track.kind === 'video') track.onReceiveRtp.subscribe((rtp) => this.onRtp(rtp));
    });
    // Janus's candidates come in its offer; should it trickle any later, they are added here.
    handle.on('event', (event) => {
      if (event.janus === 'trickle' && event.candidate && !event.candidate.completed)
        this.pc?.addIceCandidate(event.candidate).catch(() => undefined);
    });
    this.joinAt = performance.now();
    const joined = await handle.message({
      request: 'join',
      ptype: 'subscriber',
      room,
      streams: [{ feed, substream: SUBSTREAM[this.layer] }],
    });
    if (!joined.jsep) throw new Error('Janus sent no subscription offer');
    await this.pc.setRemoteDescription(joined.jsep);
    await this.pc.setLocalDescription(await this.pc.createAnswer());
    await handle.message({ request: 'start' }, { type: 'answer', sdp: this.pc.localDescription.sdp });
  }

  async close() {
    await this.pc?.close().catch(() => undefined);
    await this.session?.destroy().catch(() => undefined);
  }
}

/** Per student over a window: kbps received and loss %, from two snapshots. */
function receivedBetween(before, after) {
  const seconds = (after.at - before.at) / 1000;
  const kbps = ((after.bytes - before.bytes) * 8) / seconds / 1000;
  const expected =
    before.highestSeq === null ? (after.highestSeq === null ? 0 : after.packets) : after.highestSeq - before.highestSeq;
  const got = after.packets - before.packets;
  const loss = expected > 0 ? Math.max(0, 1 - got / expected) * 100 : 100;
  return { kbps, loss };
}

const median = (values) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function runSfu(options, cleanups, pageUrl) {
  console.log('\nSFU: one teacher (Chromium, 720p simulcast l/m/h) and N werift subscribers through Janus');
  const janus = await startJanusInNamespace({ rtpPortRange: '30000-30999' });
  cleanups.push(() => janus.stop());
  const pid = janusPid(janus.pid);
  // The veth's end on this side of the namespace: the subscribers gather their one candidate there.
  const hostAddress = janus.address.replace(/\d+$/, (last) => String(Number(last) - 1));
  console.log(
    `  janus            pid ${pid} at ${janus.url} (namespace side ${janus.address}, this side ${hostAddress})`,
  );

  const connection = await JanusConnection.open(janus.url, janus.apiSecret);
  cleanups.push(() => connection.close());
  const adminSession = await connection.createSession();
  const admin = await adminSession.attach();
  const room = 1 + Math.floor(Math.random() * 1e9);
  await admin.request({
    request: 'create',
    room,
    is_private: true,
    publishers: 4,
    bitrate: PUBLISHER_BITRATE,
    fir_freq: 10,
    audiocodec: 'opus',
    videocodec: 'vp8',
    notify_joining: false,
  });

  // The teacher.
  const teacher = await launchChromium(options.chromium);
  cleanups.push(() => teacher.browser.close());
  const page = await (await teacher.browser.newContext()).newPage();
  await page.goto(pageUrl);
  const settings = await page.evaluate(() => window.camera());
  const publisherSession = await connection.createSession();
  const publisher = await publisherSession.attach();
  const joined = await publisher.message({ request: 'join', ptype: 'publisher', room, display: 'teacher' });
  const feed = joined.plugindata.data.id;
  const offer = await page.evaluate((layers) => window.publish(layers), CAMERA_LAYERS);
  // Chromium lists the rids lowest first (l;m;h); Janus takes them highest first unless told.
  const answer = await publisher.message({ request: 'publish' }, { type: 'offer', sdp: offer, rid_order: 'lmh' });
  await page.evaluate((sdp) => window.pcs.sfu.setRemoteDescription({ type: 'answer', sdp }), answer.jsep.sdp);
  console.log(
    `  teacher camera   ${settings.width}x${settings.height}@${settings.frameRate}, published as feed ${feed}`,
  );

  // The bandwidth estimate starts low and ramps up: wait for the layers to reach the budget (20 s at most).
  const ramp = await rampUp([page], budget / 1000);
  console.log(`  teacher sends    ${ramp[0].streams.map(describeStream).join(', ')} after ${ramp.seconds} s`);

  const teacherCpu = treeMeter(teacher.pid);
  /** One window: Janus's CPU, the teacher's CPU and upload, this process's CPU, each student's reception. */
  const measure = async (subscribers) => {
    const janusBefore = ticksOf(pid);
    const own = process.cpuUsage();
    const sendBefore = await page.evaluate(() => window.sendStats());
    teacherCpu.start();
    const before = subscribers.map((s) => s.snapshot());
    const at = performance.now();
    await sleep(options.windowS * 1000);
    const seconds = (performance.now() - at) / 1000;
    const after = subscribers.map((s) => s.snapshot());
    const teacherUse = teacherCpu.stop();
    const sendAfter = await page.evaluate(() => window.sendStats());
    const ownUse = process.cpuUsage(own);
    const janusCores = ((ticksOf(pid) ?? janusBefore) - janusBefore) / TICKS_PER_S / seconds;
    return {
      janusCores,
      benchCores: (ownUse.user + ownUse.system) / 1e6 / seconds,
      teacher: { cpu: teacherUse, upload: uploadBetween(sendBefore, sendAfter, seconds) },
      received: subscribers.map((s, i) => ({ layer: s.layer, ...receivedBetween(before[i], after[i]) })),
    };
  };

  const rows = [];
  const base = await measure([]);
  rows.push({ n: 0, ...base, joins: [] });
  printSfuRow(rows.at(-1));

  const subscribers = [];
  cleanups.push(() => Promise.all(subscribers.map((s) => s.close())));
  for (const n of options.sizes) {
    // New students join at a steady pace, each without waiting for the one before.
    const fresh = [];
    const joins = [];
    for (let i = subscribers.length; i < n; i++) {
      const subscriber = new Subscriber(i, i === 0 ? 'high' : 'low');
      subscribers.push(subscriber);
      fresh.push(subscriber);
      joins.push(
        subscriber.join(connection, room, feed, hostAddress).catch((error) => {
          subscriber.error = error;
        }),
      );
      await sleep(1000 / options.joinRate);
    }
    await Promise.all(joins);
    // Everyone's first packet (or 15 s), then 2 s more to settle.
    const until = performance.now() + 15_000;
    while (fresh.some((s) => s.firstPacketAt === null && !s.error) && performance.now() < until) await sleep(100);
    await sleep(2000);
    const failed = fresh.filter((s) => s.error || s.firstPacketAt === null);
    for (const s of failed.slice(0, 3))
      console.log(`  subscriber ${s.index}: ${s.error ? s.error.message : 'no packet within 15 s'}`);
    const joinMs = fresh.filter((s) => s.firstPacketAt !== null).map((s) => s.firstPacketAt - s.joinAt);
    const row = { n, ...(await measure(subscribers)), joins: joinMs, failed: failed.length, fresh: fresh.length };
    rows.push(row);
    printSfuRow(row);
  }
  return { rows, settings };
}

function summariseSfu(row) {
  const low = row.received.filter((r) => r.layer === 'low');
  const high = row.received.filter((r) => r.layer === 'high');
  const losses = row.received.map((r) => r.loss);
  const joins = [...row.joins].sort((a, b) => a - b);
  return {
    n: row.n,
    janusCores: row.janusCores,
    perSubscriberPct: row.n ? (row.janusCores / row.n) * 100 : null,
    lowKbps: median(low.map((r) => r.kbps)),
    highKbps: median(high.map((r) => r.kbps)),
    lossMedian: median(losses),
    lossMax: losses.length ? Math.max(...losses) : NaN,
    joinP50: percentile(joins, 50),
    joinP95: percentile(joins, 95),
    joinMax: joins.at(-1),
    joinCount: joins.length,
    teacherCpu: row.teacher.cpu,
    teacherKbps: row.teacher.upload.kbps,
    benchCores: row.benchCores,
  };
}

const fixed = (value, digits = 0) =>
  value === null || value === undefined || Number.isNaN(value) ? '—' : value.toFixed(digits);

function printSfuRow(row) {
  const s = summariseSfu(row);
  console.log(
    `  N=${String(s.n).padEnd(4)} janus ${fixed(s.janusCores, 3)} cores (${fixed(s.perSubscriberPct, 2)} % of a core per subscriber); ` +
      `received: low ${fixed(s.lowKbps)} kbps, high ${fixed(s.highKbps)} kbps, loss median ${fixed(s.lossMedian, 2)} % max ${fixed(s.lossMax, 2)} %; ` +
      `join -> first packet p50 ${fixed(s.joinP50)} p95 ${fixed(s.joinP95)} ms (${s.joinCount} joins${row.failed ? `, ${row.failed} failed` : ''}); ` +
      `teacher CPU ${fixed(s.teacherCpu.renderer, 2)} renderer / ${fixed(s.teacherCpu.total, 2)} browser cores, sends ${fixed(s.teacherKbps)} kbps ` +
      `(${row.teacher.upload.streams.map(describeStream).join(', ')}); werift subscribers' process ${fixed(s.benchCores, 2)} cores`,
  );
}

// --- the mesh ----------------------------------------------------------------------------------------

async function runMesh(options, cleanups, pageUrl) {
  console.log('\nMesh: n Chromium browsers, one per person, each sending its 720p camera to every other');
  const browsers = [];
  cleanups.push(() => Promise.all(browsers.map(({ browser }) => browser.close())));
  const largest = Math.max(...options.mesh);
  for (let i = 0; i < largest; i++) browsers.push(await launchChromium(options.chromium));
  const rows = [];
  for (const n of options.mesh) {
    const people = browsers.slice(0, n);
    const contexts = await Promise.all(people.map(({ browser }) => browser.newContext()));
    try {
      const pages = await Promise.all(contexts.map((context) => context.newPage()));
      await Promise.all(pages.map((page) => page.goto(pageUrl)));
      const settings = await Promise.all(pages.map((page) => page.evaluate(() => window.camera())));
      const kbps = videoBitrateKbps(n - 1);
      for (let a = 0; a < n; a++) {
        for (let b = a + 1; b < n; b++) {
          const offer = await pages[a].evaluate((peer) => window.offer(peer), String(b));
          const answer = await pages[b].evaluate(([peer, sdp]) => window.answer(peer, sdp), [String(a), offer]);
          await pages[a].evaluate(([peer, sdp]) => window.accept(peer, sdp), [String(b), answer]);
        }
      }
      await Promise.all(pages.map((page) => page.waitForFunction(() => window.connected(), null, { timeout: 30_000 })));
      await Promise.all(pages.map((page) => page.evaluate((cap) => window.cap(cap), kbps)));
      // The bandwidth estimates ramp up towards the caps (20 s at most), then the window.
      const ramp = await rampUp(pages, kbps * (n - 1));
      console.log(`  n=${n}: connected; ramped up for ${ramp.seconds} s`);
      const meters = people.map(({ pid }) => treeMeter(pid));
      const before = await Promise.all(pages.map((page) => page.evaluate(() => window.sendStats())));
      for (const meter of meters) meter.start();
      const at = performance.now();
      await sleep(options.windowS * 1000);
      const seconds = (performance.now() - at) / 1000;
      const cpu = meters.map((meter) => meter.stop());
      const after = await Promise.all(pages.map((page) => page.evaluate(() => window.sendStats())));
      const uploads = after.map((stats, i) => uploadBetween(before[i], stats, seconds));
      const fps = after.map((stats, i) => (stats.decoded - before[i].decoded) / seconds / (n - 1));
      const row = { n, kbpsCap: kbps, settings: settings[0], cpu, uploads, fps };
      rows.push(row);
      printMeshRow(row);
    } finally {
      await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    }
  }
  return rows;
}

function summariseMesh(row) {
  return {
    n: row.n,
    rendererMedian: median(row.cpu.map((c) => c.renderer)),
    rendererMax: Math.max(...row.cpu.map((c) => c.renderer)),
    browserMedian: median(row.cpu.map((c) => c.total)),
    uploadMedian: median(row.uploads.map((u) => u.kbps)),
    uploadMin: Math.min(...row.uploads.map((u) => u.kbps)),
    fpsMedian: median(row.fps),
    sentFpsMedian: median(row.uploads.flatMap((u) => u.streams.map((stream) => stream.fps))),
  };
}

function printMeshRow(row) {
  const s = summariseMesh(row);
  console.log(
    `  n=${row.n} (${row.n - 1} links per page, each capped at ${row.kbpsCap} kbps; camera ${row.settings.width}x${row.settings.height})`,
  );
  row.cpu.forEach((cpu, i) => {
    const upload = row.uploads[i];
    console.log(
      `    page ${i + 1}: CPU ${fixed(cpu.renderer, 2)} renderer / ${fixed(cpu.total, 2)} browser cores, upload ${fixed(upload.kbps)} kbps ` +
        `(${upload.streams.map(describeStream).join(', ')}), decodes ${fixed(row.fps[i], 1)} fps per remote`,
    );
  });
  console.log(
    `    median page: ${fixed(s.rendererMedian, 2)} renderer / ${fixed(s.browserMedian, 2)} browser cores, upload ${fixed(s.uploadMedian)} kbps`,
  );
}

// --- main --------------------------------------------------------------------------------------------

async function main() {
  const options = parseArgs(process.argv.slice(2));
  console.log('Mooz class-scale benchmark: one Janus SFU against the peer-to-peer mesh (issue 30)');
  console.log(`  machine          ${machine()}`);
  console.log(
    `  subscribers      werift ${readPackageVersion('werift')} RTCPeerConnections in this process (ICE, DTLS, SRTP, NACK; no decoding): real WebRTC subscribers, not Janus's rtp_forward to plain UDP`,
  );
  console.log(
    `  layers           one subscriber asks the high layer (h, 1280x720), the others the low one (l, 320x180)`,
  );
  const loads = [os.loadavg()[0]];
  const cleanups = [];
  let cleaning = null;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      for (const step of cleanups.reverse())
        await Promise.resolve()
          .then(step)
          .catch((error) => console.error(`cleanup: ${error.message}`));
    })());
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.once(signal, () => cleanUp().then(() => process.exit(130)));
  // werift may reject or throw in its own callbacks (a late DTLS packet after close): count, never crash
  // before the cleanup.
  let stray = 0;
  const onStray = (error) => {
    if (stray++ < 3) console.error(`  (stray error: ${error?.message ?? error})`);
  };
  process.on('unhandledRejection', onStray);
  process.on('uncaughtException', onStray);

  const pages = await startPageServer();
  let sfu = null;
  let mesh = [];
  const notes = [];
  try {
    if (options.sfu) {
      if (process.getuid?.() !== 0) notes.push('SFU skipped: the Janus namespace needs root');
      else if (!janusBinary()) notes.push('SFU skipped: janus is not installed (scripts/ensure-media-servers.sh)');
      else {
        try {
          sfu = await runSfu(options, cleanups, pages.url);
        } catch (error) {
          notes.push(`SFU failed: ${error.message}`);
          console.error(error);
        }
        loads.push(os.loadavg()[0]);
        // Janus, the teacher and the subscribers go before the mesh starts.
        await cleanUp();
        cleaning = null;
        cleanups.length = 0;
      }
    }
    if (options.meshOn) {
      try {
        mesh = await runMesh(options, cleanups, pages.url);
      } catch (error) {
        notes.push(`mesh failed: ${error.message}`);
        console.error(error);
      }
      loads.push(os.loadavg()[0]);
    }
  } finally {
    await cleanUp();
    await pages.stop();
  }

  report(options, sfu, mesh, notes, loads, stray);
}

function readPackageVersion(name) {
  try {
    return JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
  } catch {
    return '?';
  }
}

function report(options, sfu, mesh, notes, loads, stray) {
  const took = Math.round((performance.now() - startedAt) / 1000);
  console.log(
    `\nSummary; machine ${machine()}; load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; ${options.windowS} s windows; ${took} s in all`,
  );
  const sfuRows = sfu ? sfu.rows.map(summariseSfu) : [];
  if (sfuRows.length) {
    console.log(
      'SFU (Janus VideoRoom; werift subscribers, 1 high + N-1 low; joins at ' +
        options.joinRate +
        '/s as the room grows):',
    );
    console.table(
      sfuRows.map((s) => ({
        N: s.n,
        'janus cores': fixed(s.janusCores, 3),
        '% core / sub': fixed(s.perSubscriberPct, 2),
        'low kbps (median)': fixed(s.lowKbps),
        'high kbps': fixed(s.highKbps),
        'loss % median': fixed(s.lossMedian, 2),
        'loss % max': fixed(s.lossMax, 2),
        'join->1st packet p95 ms': fixed(s.joinP95),
        'teacher cores (renderer)': fixed(s.teacherCpu.renderer, 2),
        'teacher upload kbps': fixed(s.teacherKbps),
      })),
    );
  }
  const meshRows = mesh.map(summariseMesh);
  if (meshRows.length) {
    console.log('Mesh (one Chromium per person, 720p camera to every other):');
    console.table(
      meshRows.map((s) => ({
        pages: s.n,
        'renderer cores / page (median)': fixed(s.rendererMedian, 2),
        'renderer max': fixed(s.rendererMax, 2),
        'browser cores / page (median)': fixed(s.browserMedian, 2),
        'upload kbps / page (median)': fixed(s.uploadMedian),
        'upload min': fixed(s.uploadMin),
        'sent fps per link (median)': fixed(s.sentFpsMedian, 1),
        'decoded fps per remote': fixed(s.fpsMedian, 1),
      })),
    );
  }

  const at = (n) => sfuRows.find((s) => s.n === n);
  const top = at(100);
  const fifty = at(50);
  const goalCpu = top ? top.janusCores < 1 && top.lossMax < 1 : null;
  const goalJoin = fifty ? fifty.joinP95 < 1500 : null;
  const said = (met) => (met === null ? 'not measured' : met ? 'met' : 'NOT met');
  console.log('Goals (issue 30; printed, never asserted):');
  console.log(
    `  100 subscribers of one 720p teacher: Janus under 1 core and every subscriber under 1 % loss: ${said(goalCpu)}` +
      (top ? ` (${fixed(top.janusCores, 3)} cores, loss max ${fixed(top.lossMax, 2)} %)` : ''),
  );
  console.log(
    `  join -> first frame p95 under 1.5 s at N = 50: ${said(goalJoin)}` +
      (fifty ? ` (${fixed(fifty.joinP95)} ms)` : ''),
  );
  for (const note of notes) console.log(`  note: ${note}`);
  if (stray) console.log(`  note: ${stray} stray error(s) from the subscribers' WebRTC stack (not counted as figures)`);

  // The README table's rows (bench/all.mjs).
  const rows = [];
  const teacherCpu = sfuRows.length ? median(sfuRows.map((s) => s.teacherCpu.renderer)) : null;
  for (const s of sfuRows.filter((row) => row.n > 0)) {
    const goal = s.n === 100 ? '< 1 core and loss < 1 % (every subscriber)' : 'none (printed)';
    const met = s.n === 100 ? goalCpu : null;
    rows.push({
      figure:
        `SFU, ${s.n} werift subscribers of one 720p simulcast teacher (1 high, ${s.n - 1} low): Janus CPU, cores ` +
        `(${round2(s.perSubscriberPct)} % of a core per subscriber; received low ${Math.round(s.lowKbps)} kbps median, high ${Math.round(s.highKbps)} kbps; ` +
        `loss median ${round2(s.lossMedian)} %, max ${round2(s.lossMax)} %; join -> first packet p95 ${Math.round(s.joinP95)} ms)`,
      value: round2(s.janusCores),
      unit: 'cores',
      baseline: round2(sfuRows[0].janusCores),
      baselineName: 'Janus with the teacher alone',
      ratio: null,
      goal,
      met,
    });
  }
  if (fifty)
    rows.push({
      figure: `SFU, join request -> first RTP packet p95 at 50 subscribers (the ${fifty.joinCount} who joined as the room grew to 50, 10 a second; p50 ${Math.round(fifty.joinP50)} ms), ms`,
      value: Math.round(fifty.joinP95),
      unit: 'ms',
      baseline: null,
      baselineName: null,
      ratio: null,
      goal: 'join -> first frame p95 < 1,500 ms',
      met: goalJoin,
    });
  for (const s of meshRows) {
    rows.push({
      figure:
        `mesh, ${s.n} Chromium pages, 720p camera to each other: CPU per page, cores (renderer, median; whole browser ${round2(s.browserMedian)}; ` +
        `upload ${Math.round(s.uploadMedian)} kbps per page; sent ${round2(s.sentFpsMedian)} fps per link, decoded ${round2(s.fpsMedian)} fps per remote)`,
      value: round2(s.rendererMedian),
      unit: 'cores',
      baseline: teacherCpu === null ? null : round2(teacherCpu),
      baselineName: teacherCpu === null ? null : 'the SFU teacher page, sending its camera once in three layers',
      ratio: teacherCpu ? round2(s.rendererMedian / teacherCpu) : null,
      goal: 'none (printed: the mesh the SFU replaces)',
      met: null,
    });
  }
  if (!sfuRows.length)
    rows.push({
      figure: notes.join('; ') || 'SFU not run',
      value: null,
      unit: '',
      baseline: null,
      baselineName: null,
      ratio: null,
      goal: '—',
      met: null,
    });
  printSummary('class-scale', rows);
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  });
