#!/usr/bin/env -S npx tsx
// Signalling benchmark: N socket.io clients with real access tokens connect, join R rooms and relay
// signalling messages to each other, as meeting clients do. Prints join latency (median, p95), relay
// throughput and latency, server memory per connection, and the machine. A small unloaded run (two
// clients, one room) goes first as the baseline the loaded figures compare to. It never asserts on time.
//
//   npx tsx bench/signalling.mjs                      # starts its own server (PGlite, demo data)
//   npx tsx bench/signalling.mjs --clients 200 --rooms 20 --messages 10
//   npx tsx bench/signalling.mjs --url http://127.0.0.1:3000 [--tokens tokens.txt | --admin-email a --admin-password p]
//
// Against a given URL any server speaking the contract's protocol works: tokens come from --tokens (one
// access token per line) or from accounts it creates with the admin API; memory is measured only for a
// server it started itself (or --server-pid PID on this machine). BENCH_DATABASE_URL / BENCH_REDIS_URL
// run its own server on PostgreSQL / with the Redis adapter.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { io } from 'socket.io-client';
import { percentile, rssOf, sleep, startServer } from './support/server.mjs';
import { limits } from '../packages/contract/src/limits.ts';

function parseArgs(argv) {
  const options = {
    clients: 1000,
    rooms: 100,
    messages: 20,
    users: 50,
    url: null,
    tokens: null,
    adminEmail: 'admin@mooz.local',
    adminPassword: 'mooz-demo-123',
    concurrency: 100,
    serverPid: null,
    payloadBytes: 600,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--clients' || arg === '-n') options.clients = Number(value());
    else if (arg === '--rooms') options.rooms = Number(value());
    else if (arg === '--messages') options.messages = Number(value());
    else if (arg === '--users') options.users = Number(value());
    else if (arg === '--url') options.url = value().replace(/\/$/, '');
    else if (arg === '--tokens') options.tokens = value();
    else if (arg === '--admin-email') options.adminEmail = value();
    else if (arg === '--admin-password') options.adminPassword = value();
    else if (arg === '--concurrency') options.concurrency = Number(value());
    else if (arg === '--server-pid') options.serverPid = Number(value());
    else if (arg === '--payload-bytes') options.payloadBytes = Number(value());
    else if (arg === '--help' || arg === '-h') {
      console.log(readFileSync(import.meta.filename, 'utf8').split('\n').slice(1, 15).join('\n'));
      process.exit(0);
    } else throw new Error(`unknown option ${arg}`);
  }
  for (const key of ['clients', 'rooms', 'messages', 'users', 'concurrency']) {
    if (!Number.isInteger(options[key]) || options[key] < 1) throw new Error(`--${key} must be a positive whole number`);
  }
  if (options.clients < 2 * options.rooms) throw new Error('each room needs at least two clients: use fewer --rooms');
  if (options.users < Math.ceil(options.clients / options.rooms)) throw new Error('each client of a room needs its own account: use more --users');
  return options;
}

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, median: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? NaN };
}

const ms = (value) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : 'n/a');
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function postJson(url, body, token) {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    // A server with its normal login limits answers 429: wait as told, a bounded number of times.
    if (response.status === 429 && attempt < 20) {
      await sleep(Math.min(60, Number(response.headers.get('retry-after') ?? 1)) * 1000);
      continue;
    }
    const json = await response.json().catch(() => null);
    if (!response.ok) throw new Error(`${url}: ${response.status} ${json?.message ?? ''}`);
    return json;
  }
}

/** Access tokens: from a file, or for accounts created through the admin API. */
async function accessTokens(options, url) {
  if (options.tokens) {
    const tokens = readFileSync(options.tokens, 'utf8').split('\n').map((line) => line.trim()).filter(Boolean);
    if (!tokens.length) throw new Error(`${options.tokens} holds no tokens`);
    return tokens;
  }
  const admin = await postJson(`${url}/api/auth/login/`, { email: options.adminEmail, password: options.adminPassword });
  const password = `bench-${randomUUID()}`;
  const run = randomUUID().slice(0, 8);
  const tokens = [];
  for (let i = 0; i < options.users; i++) {
    const email = `bench-${run}-${i}@bench.invalid`;
    await postJson(`${url}/api/admin/users/`, { email, password, first_name: 'Bench', last_name: `User ${i}`, user_type: 'student' }, admin.data.access);
    const login = await postJson(`${url}/api/auth/login/`, { email, password });
    tokens.push(login.data.access);
  }
  return tokens;
}

/** Runs `task` over `items` with at most `limit` at once. */
async function pool(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index], index);
      }
    }),
  );
  return results;
}

function connect(url, token) {
  const sessionId = randomUUID();
  const started = performance.now();
  const socket = io(url, {
    path: '/socket.io/',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: { sessionId, currentRoomId: null, token, userRole: 'student' },
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve({ socket, sessionId, connectMs: performance.now() - started }));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(new Error(`connect_error: ${error.message}`));
    });
  });
}

function ask(socket, event, payload, timeoutMs = 30_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${event}: no acknowledgement in ${timeoutMs} ms`)), timeoutMs);
    socket.emit(event, payload, (res) => {
      clearTimeout(timer);
      resolve(res);
    });
  });
}

/** One scenario: connect, create rooms, join, relay; returns its figures. */
async function scenario(url, tokens, { clients, rooms, messages, concurrency, payloadBytes }, memory) {
  const rssBefore = memory?.();
  const connectStarted = performance.now();
  // Client i joins room i % rooms; the k-th client of a room uses account k, so no account is twice in
  // one room (the server gives an account one place per room).
  const peers = await pool(Array.from({ length: clients }, (_, i) => tokens[Math.floor(i / rooms) % tokens.length]), concurrency, (token) => connect(url, token));
  const connectSeconds = (performance.now() - connectStarted) / 1000;

  const perRoom = Math.ceil(clients / rooms);
  const capacity = Math.min(limits.meetingMaxCapacity, perRoom);
  const roomIds = await pool(Array.from({ length: rooms }, (_, i) => i), concurrency, async (i) => {
    const res = await ask(peers[i].socket, 'request:create_room', { room: { name: `Bench ${i}`, capacity } });
    if (res.error) throw new Error(`create_room: ${res.error}`);
    return res.room.id;
  });

  const members = Array.from({ length: rooms }, () => []);
  const joinMs = [];
  const joinErrors = new Map();
  await pool(peers, concurrency, async (peer, i) => {
    const room = i % rooms;
    const started = performance.now();
    const res = await ask(peer.socket, 'request:join_room', { roomId: roomIds[room], userName: `Bench ${i}` });
    if (res.error) joinErrors.set(res.error, (joinErrors.get(res.error) ?? 0) + 1);
    else {
      joinMs.push(performance.now() - started);
      peer.room = room;
      members[room].push(peer);
    }
  });
  const rssAfter = memory?.();

  // Relay: everyone sends `messages` signals to the next member of their room, as ICE candidates go.
  const relayMs = [];
  let delivered = 0;
  let expected = 0;
  let refused = 0;
  const filler = 'a'.repeat(Math.max(0, payloadBytes - 200));
  let allDelivered;
  const done = new Promise((resolve) => (allDelivered = resolve));
  for (const peer of peers) {
    peer.socket.on('action:message_received', ({ data }) => {
      if (typeof data?.sentAt !== 'number') return;
      relayMs.push(performance.now() - data.sentAt);
      delivered += 1;
      if (delivered === expected) allDelivered();
    });
  }
  const senders = members.flatMap((group) => group.map((peer, i) => ({ peer, to: group[(i + 1) % group.length], group })).filter((s) => s.group.length > 1));
  expected = senders.length * messages;
  const relayStarted = performance.now();
  await pool(senders, concurrency, async ({ peer, to }) => {
    for (let m = 0; m < messages; m++) {
      const data = {
        sdpSignal: { candidate: { candidate: `candidate:1 1 udp 2122194687 192.0.2.${m % 250} ${40000 + m} typ host ${filler}`, sdpMid: '0', sdpMLineIndex: 0 } },
        metaData: { screenStreamId: null, userStreamId: peer.sessionId },
        sentAt: performance.now(),
      };
      const res = await ask(peer.socket, 'request:send_mesage', { to: to.sessionId, roomId: roomIds[peer.room], data });
      if (res?.error) refused += 1;
    }
  });
  const expectedDelivered = expected - refused;
  if (delivered < expectedDelivered) {
    expected = expectedDelivered;
    await Promise.race([done, sleep(30_000)]);
  }
  const relaySeconds = (performance.now() - relayStarted) / 1000;

  await pool(peers, concurrency, async (peer) => {
    if (peer.room !== undefined) await ask(peer.socket, 'request:leave_room', { roomId: roomIds[peer.room] }).catch(() => undefined);
    peer.socket.close();
  });

  return {
    clients,
    rooms,
    connectSeconds,
    connectMs: summary(peers.map((p) => p.connectMs)),
    joinMs: summary(joinMs),
    joinErrors: Object.fromEntries(joinErrors),
    relayMs: summary(relayMs),
    delivered,
    refused,
    relaySeconds,
    throughput: delivered / relaySeconds,
    memoryPerConnection: rssBefore != null && rssAfter != null ? (rssAfter - rssBefore) / clients : null,
    rssBefore,
    rssAfter,
  };
}

function print(label, result) {
  console.log(`\n${label}: ${result.clients} clients in ${result.rooms} room(s)`);
  console.log(`  connect          ${result.connectSeconds.toFixed(2)} s for all; median ${ms(result.connectMs.median)}, p95 ${ms(result.connectMs.p95)}`);
  console.log(`  join latency     median ${ms(result.joinMs.median)}, p95 ${ms(result.joinMs.p95)}, max ${ms(result.joinMs.max)} (${result.joinMs.count} joined)`);
  if (Object.keys(result.joinErrors).length) console.log(`  join refused     ${JSON.stringify(result.joinErrors)}`);
  console.log(`  relay            ${result.delivered} messages in ${result.relaySeconds.toFixed(2)} s = ${result.throughput.toFixed(0)} msg/s${result.refused ? ` (${result.refused} refused)` : ''}`);
  console.log(`  relay latency    median ${ms(result.relayMs.median)}, p95 ${ms(result.relayMs.p95)}, max ${ms(result.relayMs.max)}`);
  if (result.memoryPerConnection != null) {
    console.log(`  server memory    ${mib(result.rssBefore)} -> ${mib(result.rssAfter)} RSS: ${(result.memoryPerConnection / 1024).toFixed(1)} KiB per connection`);
  } else if (result.rssBefore === undefined) {
    console.log('  server memory    not measured for the baseline');
  } else {
    console.log('  server memory    n/a (not a local server this run started; pass --server-pid to measure one)');
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const cpus = os.cpus();
  console.log('Mooz signalling benchmark');
  console.log(`  machine          ${cpus[0]?.model ?? 'unknown CPU'} x ${cpus.length}, ${mib(os.totalmem())} RAM, ${os.type()} ${os.release()} (${os.arch()}), Node ${process.version}`);

  const server = options.url ? null : await startServer({ databaseUrl: process.env.BENCH_DATABASE_URL ?? '', redisUrl: process.env.BENCH_REDIS_URL ?? '' });
  const url = options.url ?? server.url;
  const pid = server?.pid ?? options.serverPid;
  const memory = pid ? () => rssOf(pid) : null;
  console.log(`  server           ${url}${server ? ' (started by this run)' : ''}`);
  console.log(`  load             ${options.clients} clients, ${options.rooms} rooms, ${options.messages} relays each, ${options.payloadBytes}-byte payloads`);

  try {
    const tokens = await accessTokens(options, url);
    console.log(`  tokens           ${tokens.length} distinct accounts`);
    const baseline = await scenario(url, tokens, { ...options, clients: 2, rooms: 1, messages: Math.max(100, options.messages) }, null);
    print('baseline (unloaded)', baseline);
    const loaded = await scenario(url, tokens, options, memory);
    print('loaded', loaded);
    console.log(
      `\n  compared to baseline: join median x${(loaded.joinMs.median / baseline.joinMs.median).toFixed(1)}, relay latency median x${(loaded.relayMs.median / baseline.relayMs.median).toFixed(1)}`,
    );
  } finally {
    await server?.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
