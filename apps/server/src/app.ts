// buildApp(config): the whole server as a Fastify instance. main.ts listens; tests call it directly.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import helmet from '@fastify/helmet';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Redis } from 'ioredis';
import type { Config } from './config';
import { resolveJwtSecret } from './config';
import { openDatabase, type Database, type DatabaseHandle } from './db/client';
import { registerErrorHandling } from './http/errors-plugin';
import { registerWebApp } from './http/web-app';
import { healthRoutes } from './modules/health/routes';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    jwtSecret: string;
    redis: Redis | null;
  }
}

export interface AppDependencies {
  /** A database opened by the caller (tests); otherwise the app opens one from the config and closes it. */
  database?: DatabaseHandle;
}

const contentSecurityPolicy = {
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", 'https://checkout.razorpay.com'],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
    mediaSrc: ["'self'", 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", 'ws:', 'wss:', 'https://*.razorpay.com'],
    frameSrc: ["'self'", 'https://api.razorpay.com', 'https://checkout.razorpay.com'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    upgradeInsecureRequests: null,
  },
};

export async function buildApp(config: Config, deps: AppDependencies = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    genReqId: () => randomUUID(),
    requestIdHeader: 'x-request-id',
    bodyLimit: 1024 * 1024,
    forceCloseConnections: 'idle',
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const database = deps.database ?? (await openDatabase(config));
  app.decorate('config', config);
  app.decorate('db', database.db);
  app.decorate('jwtSecret', resolveJwtSecret(config));
  app.decorate('redis', null);
  if (!deps.database) app.addHook('onClose', () => database.close());

  await app.register(helmet, { contentSecurityPolicy, crossOriginEmbedderPolicy: false });
  await app.register(cors, {
    origin: config.corsOrigins.length ? config.corsOrigins : false,
    credentials: true,
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Mooz API', version: '1.0.0', description: 'Live classes and recorded courses.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(healthRoutes, { prefix: '/api' });

  await registerWebApp(app, config.webDist);
  return app;
}
