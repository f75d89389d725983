// The floor bench/api.mjs measures against: a bare Fastify "hello" built from the project's own
// Fastify, in its own process like the real server. PORT names the port.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
