// Each request's id and logger: ids unique and UUID-shaped, and a request's lines carrying its id, with
// pino's child logger made only for a request that writes a line.
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { requestIds, requestLogger } from './request-logger';

function captured(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

async function appLoggingTo(logger: pino.Logger) {
  const app = Fastify({ loggerInstance: logger, genReqId: requestIds(), childLoggerFactory: requestLogger });
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/chatty', async (request) => {
    request.log.info({ step: 1 }, 'an info line');
    request.log.warn('a warning');
    return { ok: true };
  });
  app.get('/own-level', { logLevel: 'debug' }, async (request) => {
    request.log.debug('a debug line');
    return { ok: true };
  });
  await app.ready();
  return app;
}

describe('requestIds', () => {
  it('gives UUID-shaped ids, each once, and another process (or run) other ones', () => {
    const next = requestIds();
    const ids = Array.from({ length: 1000 }, () => next());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const other = requestIds()();
    expect(other.slice(0, 24)).not.toBe(ids[0]!.slice(0, 24));
  });
});

describe('requestLogger', () => {
  it('writes a request’s lines at the levels that are on, each with the request’s id', async () => {
    const { logger, lines } = captured('warn');
    const app = await appLoggingTo(logger);
    const res = await app.inject({ url: '/chatty' });
    expect(res.statusCode).toBe(200);
    expect(lines.map((line) => line.msg)).toEqual(['a warning']);
    expect(lines[0]).toMatchObject({ level: 40, reqId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    await app.close();
  });

  it('writes the info lines too when the level is info', async () => {
    const { logger, lines } = captured('info');
    const app = await appLoggingTo(logger);
    await app.inject({ url: '/chatty' });
    expect(lines.map((line) => [line.msg, line.step])).toEqual([
      ['incoming request', undefined],
      ['an info line', 1],
      ['a warning', undefined],
      ['request completed', undefined],
    ]);
    expect(new Set(lines.map((line) => line.reqId)).size).toBe(1);
    await app.close();
  });

  it('makes no child logger for a request that writes nothing', async () => {
    const { logger, lines } = captured('warn');
    const app = await appLoggingTo(logger);
    const child = vi.spyOn(logger, 'child');
    await app.inject({ url: '/quiet' });
    await app.inject({ url: '/chatty' });
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toHaveLength(1);
    await app.close();
  });

  it('gives a route with a level of its own a child logger at that level', async () => {
    const { logger, lines } = captured('warn');
    const app = await appLoggingTo(logger);
    await app.inject({ url: '/own-level' });
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'a debug line', 'request completed']);
    await app.close();
  });

  it('answers for its level as pino does, and makes children of its own', () => {
    const { logger, lines } = captured('warn');
    const request = requestLogger(logger, { reqId: 'r-1' }, {});
    expect(request.level).toBe('warn');
    request.child({ part: 'upload' }).error('a child line');
    expect(lines).toEqual([expect.objectContaining({ reqId: 'r-1', part: 'upload', msg: 'a child line' })]);
    request.level = 'info';
    request.info('now on');
    expect(lines.at(-1)).toMatchObject({ reqId: 'r-1', msg: 'now on' });
    expect(logger.level).toBe('warn');
  });
});
