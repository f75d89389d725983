#!/usr/bin/env node
// A throwaway coturn (Debian's /usr/bin/turnserver) on 127.0.0.1, with the TURN REST API scheme the
// server's credentials follow (apps/server/src/realtime/turn-credentials.ts): for the end-to-end
// tests of relayed meetings, and for a developer who wants to see a class go through a relay.
//
//   node scripts/coturn.mjs [--secret S] [--port P]   # prints TURN_URLS and TURN_SECRET; Ctrl+C stops it
//
//   import { startCoturn } from '../scripts/coturn.mjs';
//   const coturn = await startCoturn({ secret });   // {urls, port, pid, stop()}
//
// Loopback only, no TLS, no CLI, loopback peers allowed (browsers on this machine relay to each
// other): never a configuration for a public host (README: "TURN on coturn").
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const TURNSERVER = process.env.TURNSERVER ?? '/usr/bin/turnserver';
/**
 * Relay ports per coturn. Chromium allocates on the relay once per network interface and transport
 * (eth0, each Janus veth, UDP and TCP): ten or more ports per peer connection here.
 */
const RELAY_PORTS = 1000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port free for both TCP and UDP on 127.0.0.1 (coturn listens on both). */
async function freePort() {
  for (let tries = 0; tries < 20; tries++) {
    const port = await new Promise((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address();
        server.close(() => resolve(port));
      });
    });
    const udpFree = await new Promise((resolve) => {
      const socket = dgram.createSocket('udp4');
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
    });
    if (udpFree) return port;
  }
  throw new Error('no free port for coturn');
}

/** True once a STUN Binding request to 127.0.0.1:port over UDP gets its success response. */
function answersStun(port, timeoutMs = 300) {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    const id = randomBytes(12);
    // Binding request (0x0001), no attributes, the magic cookie, our transaction id.
    const request = Buffer.concat([Buffer.from([0x00, 0x01, 0x00, 0x00, 0x21, 0x12, 0xa4, 0x42]), id]);
    const done = (ok) => {
      clearTimeout(timer);
      socket.close();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('message', (message) => done(message.readUInt16BE(0) === 0x0101 && message.subarray(8, 20).equals(id)));
    socket.on('error', () => done(false));
    socket.send(request, port, '127.0.0.1');
  });
}

/**
 * Starts coturn on 127.0.0.1 with `secret` as its static-auth-secret, on `port` (a free one by
 * default), relaying from `relayIp`, and resolves once it answers STUN. `urls` are the TURN_URLS that reach it over UDP and TCP.
 */
export async function startCoturn({ secret, port, relayIp = '127.0.0.1', quiet = true } = {}) {
  if (!secret) throw new Error('startCoturn needs the secret (TURN_SECRET)');
  const listeningPort = port ?? (await freePort());
  const minPort = 40_000 + Math.floor(Math.random() * 20) * RELAY_PORTS;
  const dir = mkdtempSync(join(tmpdir(), 'mooz-coturn-'));
  const args = [
    '-n',
    '--use-auth-secret',
    `--static-auth-secret=${secret}`,
    '--realm=mooz',
    '--listening-ip=127.0.0.1',
    // Relays leave from here: loopback for browsers on this machine; a veth's address to reach a
    // Janus in a network namespace (a packet from 127.0.0.1 may not leave the loopback).
    `--relay-ip=${relayIp}`,
    `--listening-port=${listeningPort}`,
    `--min-port=${minPort}`,
    `--max-port=${minPort + RELAY_PORTS - 1}`,
    '--allow-loopback-peers',
    '--fingerprint',
    '--no-tls',
    '--no-dtls',
    '--no-cli',
    // Its own files, so neither /var/run nor /var/lib/turn needs to be writable.
    `--pidfile=${join(dir, 'turnserver.pid')}`,
    `--userdb=${join(dir, 'turndb')}`,
    '--log-file=stdout',
    '--simple-log',
  ];
  const child = spawn(TURNSERVER, args, { stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'pipe'] });
  // Kept for a failed start's message; Debian's build also says "socket: Protocol not supported" for SCTP, harmlessly.
  let errors = '';
  child.stderr.on('data', (chunk) => (errors = (errors + chunk).slice(-2000)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.once('error', () => undefined);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGTERM');
    await Promise.race([exited, sleep(3000)]);
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null || child.pid === undefined) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`${TURNSERVER} did not start (exit code ${child.exitCode}): ${errors.trim() || "is Debian's coturn installed?"}`);
    }
    if (await answersStun(listeningPort)) {
      return {
        urls: [`turn:127.0.0.1:${listeningPort}?transport=udp`, `turn:127.0.0.1:${listeningPort}?transport=tcp`],
        port: listeningPort,
        pid: child.pid,
        stop,
      };
    }
    await sleep(50);
  }
  await stop();
  throw new Error(`coturn did not answer on 127.0.0.1:${listeningPort}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const option = (name) => {
    const at = process.argv.indexOf(name);
    return at === -1 ? undefined : process.argv[at + 1];
  };
  const secret = option('--secret') ?? randomBytes(24).toString('base64url');
  const coturn = await startCoturn({ secret, port: option('--port') ? Number(option('--port')) : undefined });
  console.log(`coturn (pid ${coturn.pid}) on 127.0.0.1:${coturn.port}; start Mooz with:`);
  console.log(`  TURN_URLS='${coturn.urls.join(',')}' TURN_SECRET='${secret}'`);
  console.log('Ctrl+C stops it.');
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void coturn.stop().then(() => process.exit(0)));
}
