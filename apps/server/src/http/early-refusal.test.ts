// An upload refused by its first bytes is answered at once and its connection closed, so the client
// stops sending what nobody will read: over a raw socket, 256 KB of a declared 200 MB body.
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app';
import { signedIn } from '../../test/accounts';
import { createCourse } from '../../test/courses';
import { sessionAt } from '../../test/sessions';

let t: TestApp;
let port: number;
beforeEach(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterEach(async () => {
  await t.close();
});

const KB = 1024;
const MB = 1024 * KB;

/** Sends a request's head announcing `declared` bytes of multipart body, then `sent` bytes of it: a file of zeros. */
function rawUpload(path: string, headers: Record<string, string>, declared: number, sent: number) {
  const boundary = '----moozEarlyRefusal';
  const partHead = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="recording"; filename="zeros.webm"\r\nContent-Type: video/webm\r\n\r\n`,
  );
  const socket = net.connect(port, '127.0.0.1');
  const head = [`POST ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, `Content-Type: multipart/form-data; boundary=${boundary}`, `Content-Length: ${declared}`];
  for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
  let answer = '';
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
  socket.on('error', () => {});
  const written = new Promise<void>((resolve) => {
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    socket.write(Buffer.concat([partHead, Buffer.alloc(sent - partHead.length)]), () => resolve());
  });
  return { socket, written, closed, answer: () => answer };
}

describe('an upload whose first bytes are not what it claims', () => {
  it('gets its 415 within a second of 256 KB of a declared 200 MB body, and the server closes the connection', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers, { name: 'Zeros' });
    const session = await sessionAt(t, course.id, 'Kick-off', -120);
    const upload = rawUpload(`/api/classes/sessions/${session.roomId}/upload-recording/`, teacher.headers, 200 * MB, 256 * KB);
    await upload.written;
    // The bound: the answer is there within a second of the first 256 KB, and the connection ends.
    const ended = await Promise.race([upload.closed.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 1000))]);
    upload.socket.destroy();
    expect(upload.answer()).toMatch(/^HTTP\/1\.1 415 /);
    expect(upload.answer()).toMatch(/\r\nconnection: close\r\n/i);
    expect(upload.answer()).toContain('{"message":"The recording must be a WebM video"}');
    expect(ended, 'the server closed the connection').toBe(true);
  });
});
