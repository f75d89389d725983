// The environment, parsed once with the names and defaults of shared/contract.md. A bad value stops
// start-up with one line naming the variable.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { limits } from '@mooz/contract/limits';
import { recordingLimits } from '@mooz/contract/recordings';

const DEV_KEY_ID = 'rzp_test_mooz_dev';
const DEV_KEY_SECRET = 'mooz-dev-key-secret';
const DEV_WEBHOOK_SECRET = 'mooz-dev-webhook-secret';

const flag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');
const seconds = z.coerce.number().int().positive();

const defaultIceServers = [
  { urls: ['stun:stun.l.google.com:19302', 'stun:stun1.l.google.com:19302'] },
];

/**
 * argon2id's cost per password: OWASP's recommended parameters (19 MiB, 2 passes), or a cheap one that
 * only test runs ask for (PASSWORD_HASH_COST=test). Tests make a user, so hash a password, in nearly
 * every case, and at the OWASP cost each hash or login is 20 ms of CPU or more on a loaded machine.
 * Production refuses the cheap one. A stored hash names its own cost, so either verifies.
 */
const passwordHashCosts = {
  owasp: { memoryCost: 19_456, timeCost: 2 },
  test: { memoryCost: 1_024, timeCost: 1 },
} as const;

const iceServer = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  REDIS_PREFIX: z.string().default('mooz:'),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Mooz <no-reply@mooz.local>'),
  SELLER_NAME: z.string().trim().min(1).default('Mooz'),
  SELLER_ADDRESS: z.string().trim().default(''),
  SELLER_TAX_ID: z.string().trim().optional(),
  RECEIPT_TAX_RATE: z.coerce.number().min(0).max(100).default(0),
  RECEIPT_TAX_LABEL: z.string().trim().min(1).default('Tax'),
  PAYMENTS_PROVIDER: z.enum(['razorpay', 'sandbox']).optional(),
  RAZORPAY_API_URL: z.string().url().default('https://api.razorpay.com'),
  RAZORPAY_KEY_ID: z.string().min(1).optional(),
  RAZORPAY_KEY_SECRET: z.string().min(1).optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().min(1).optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL: seconds.default(900),
  REFRESH_TOKEN_TTL: seconds.default(1_209_600),
  TRIAL_DAYS: z.coerce.number().int().min(0).default(limits.defaultTrialDays),
  SEED_DEMO: flag.default(false),
  DEMO_PASSWORD: z.string().min(8).default('mooz-demo-123'),
  PASSWORD_HASH_COST: z.enum(['owasp', 'test']).default('owasp'),
  MAX_RECORDING_MB: z.coerce.number().int().positive().default(2048),
  RECORDING_STALL_SECONDS: seconds.default(recordingLimits.staleAfterSeconds),
  RECORDING_RESUMABLE_SECONDS: seconds.default(recordingLimits.resumableSeconds),
  /** The SFU (sfu/): Janus WebSocket API URLs; unset, main.ts starts a Janus of its own when one is installed. */
  JANUS_URLS: z
    .string()
    .transform((raw, ctx) => {
      const urls = raw.split(',').map((url) => url.trim()).filter(Boolean);
      if (!urls.every((url) => /^wss?:\/\/[^\s/]+/.test(url))) {
        ctx.addIssue({ code: 'custom', message: 'must be comma-separated ws:// or wss:// URLs' });
        return z.NEVER;
      }
      return urls;
    })
    .optional(),
  JANUS_API_SECRET: z.string().min(1).optional(),
  MESH_MAX_PEOPLE: z.coerce.number().int().min(2).max(limits.meshMaxCapacity).default(limits.defaultMeshMaxPeople),
  /** Recordings in an S3-compatible bucket (both S3_URL and S3_BUCKET set); otherwise files in DATA_DIR/recordings. */
  S3_URL: z.string().url().optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens')
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  ICE_SERVERS: z
    .string()
    .transform((raw, ctx) => {
      try {
        return z.array(iceServer).parse(JSON.parse(raw));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON list of RTCIceServer objects' });
        return z.NEVER;
      }
    })
    .optional(),
  /** TURN servers handed out with short-lived credentials (realtime/turn-credentials.ts); TURN_SECRET is coturn's static-auth-secret. */
  TURN_URLS: z
    .string()
    .transform((raw) => raw.split(',').map((url) => url.trim()).filter(Boolean))
    .refine((urls) => urls.length > 0 && urls.every((url) => /^turns?:[^\s]+$/.test(url)), 'must be comma-separated turn: or turns: URLs')
    .optional(),
  TURN_SECRET: z.string().min(1).optional(),
  TURN_TTL: seconds.default(21_600),
  ICE_TRANSPORT_POLICY: z.enum(['all', 'relay']).default('all'),
  WEB_DIST: z.string().optional(),
  CORS_ORIGINS: z.string().optional(),
  /** The address users reach the app at (https://mooz.example.com): links in reminder mails and calendar feeds. */
  PUBLIC_URL: z
    .string()
    .url()
    .refine((url) => /^https?:\/\//.test(url), 'must be an http:// or https:// address')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().optional(),
  /** Which proxies may name the client's address in X-Forwarded-For: off, a hop count, or addresses/CIDRs. */
  TRUST_PROXY: z
    .string()
    .transform((raw, ctx) => {
      const value = raw.trim();
      if (value === 'false' || value === '0') return false;
      if (/^\d+$/.test(value)) return Number(value);
      const list = value.split(',').map((entry) => entry.trim()).filter(Boolean);
      if (!list.length || list.some((entry) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry))) {
        ctx.addIssue({ code: 'custom', message: 'use false, a hop count, or a comma-separated list of addresses or CIDR ranges' });
        return z.NEVER;
      }
      return list;
    })
    .optional(),
  /** Rate limits can be raised for benchmarks; never switched off. */
  RATE_LIMIT_SCALE: z.coerce.number().positive().default(1),
  /** Server processes (node:cluster) sharing the port: a number, or `auto` for one per core. */
  WORKERS: z
    .union([z.literal('auto').transform(() => availableParallelism()), z.coerce.number().int().min(1).max(64)])
    .default(1),
});

export type Config = ReturnType<typeof shapeConfig>;

function shapeConfig(env: z.infer<typeof envSchema>) {
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    /** Who sells, as receipts print it; the tax rate is included in prices (0: no tax line). */
    seller: {
      name: env.SELLER_NAME,
      address: env.SELLER_ADDRESS,
      taxId: env.SELLER_TAX_ID || null,
      taxRate: env.RECEIPT_TAX_RATE,
      taxLabel: env.RECEIPT_TAX_LABEL,
    },
    production: env.NODE_ENV === 'production',
    /** Off unless configured: otherwise any client could pick its own address and dodge every per-address limit. */
    trustProxy: env.TRUST_PROXY ?? false,
    payments: {
      provider: env.PAYMENTS_PROVIDER ?? 'sandbox',
      apiUrl: env.RAZORPAY_API_URL,
      keyId: env.RAZORPAY_KEY_ID ?? DEV_KEY_ID,
      keySecret: env.RAZORPAY_KEY_SECRET ?? DEV_KEY_SECRET,
      webhookSecret: env.RAZORPAY_WEBHOOK_SECRET ?? DEV_WEBHOOK_SECRET,
      usesDevKeys: !env.RAZORPAY_KEY_ID || !env.RAZORPAY_KEY_SECRET || !env.RAZORPAY_WEBHOOK_SECRET,
    },
    jwtSecret: env.JWT_SECRET,
    accessTokenTtl: env.ACCESS_TOKEN_TTL,
    refreshTokenTtl: env.REFRESH_TOKEN_TTL,
    trialDays: env.TRIAL_DAYS,
    seedDemo: env.SEED_DEMO,
    demoPassword: env.DEMO_PASSWORD,
    maxRecordingBytes: env.MAX_RECORDING_MB * 1024 * 1024,
    /** Live recordings: stopped (and made with what they have) after a stall this long; their recorder may go on for resumableMs after the last chunk. */
    liveRecordings: { staleAfterMs: env.RECORDING_STALL_SECONDS * 1000, resumableMs: env.RECORDING_RESUMABLE_SECONDS * 1000 },
    /** The SFU's instances; empty: none configured (main.ts may start its own and add it). */
    janus: { urls: env.JANUS_URLS ?? [], apiSecret: env.JANUS_API_SECRET, meshMaxPeople: env.MESH_MAX_PEOPLE },
    /** null: recordings are files under DATA_DIR/recordings. */
    s3:
      env.S3_URL && env.S3_BUCKET
        ? {
            url: env.S3_URL,
            bucket: env.S3_BUCKET,
            region: env.S3_REGION,
            accessKeyId: env.S3_ACCESS_KEY_ID,
            secretAccessKey: env.S3_SECRET_ACCESS_KEY,
          }
        : null,
    iceServers: env.ICE_SERVERS ?? defaultIceServers,
    /** null: no TURN of our own (STUN only, or what ICE_SERVERS lists). */
    turn: env.TURN_URLS && env.TURN_SECRET ? { urls: env.TURN_URLS, secret: env.TURN_SECRET, ttlSeconds: env.TURN_TTL } : null,
    /** 'relay': clients use TURN relay candidates only. */
    iceTransportPolicy: env.ICE_TRANSPORT_POLICY,
    webDist: path.resolve(env.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    corsOrigins: env.CORS_ORIGINS?.split(',').map((o) => o.trim()).filter(Boolean) ?? [],
    /** Without a trailing slash; unset: links are made from the request's own address, or from HOST and PORT. */
    publicUrl: env.PUBLIC_URL?.replace(/\/+$/, '') ?? null,
    logLevel: env.LOG_LEVEL,
    rateLimitScale: env.RATE_LIMIT_SCALE,
    workers: env.WORKERS,
  };
}

export class ConfigError extends Error {}

/** Parses the environment; throws a ConfigError whose message is one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable counts as unset, as shells and .env files usually mean it.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid ${String(issue.path[0])}: ${issue.message}`);
  }
  const config = shapeConfig(parsed.data);
  refuseHalfAnS3Setting(parsed.data);
  refuseTurnWithoutRelay(parsed.data);
  if (config.production) refuseDevelopmentDefaults(parsed.data);
  // Workers share what one process would keep to itself: the database (PGlite lives in one process),
  // and through Redis the meeting rooms, the rate limits and the cache changes.
  if (config.workers > 1 && (!config.databaseUrl || !config.redisUrl)) {
    throw new ConfigError(`Invalid WORKERS: more than one server process needs DATABASE_URL and REDIS_URL`);
  }
  return config;
}

/**
 * The cost PASSWORD_HASH_COST names. Apart from loadConfig because passwords are hashed where no config
 * is handed (infrastructure/passwords.ts reads it once); loadConfig checks the same variable at start.
 */
export function passwordHashCost(env: Record<string, string | undefined> = process.env) {
  return passwordHashCosts[envSchema.shape.PASSWORD_HASH_COST.parse(env.PASSWORD_HASH_COST || undefined)];
}

/**
 * In production the development payment secrets (public in this repository) would let anyone sign a
 * payment, and a silently chosen sandbox would hand courses out for free: both stop the start, as does
 * the test runs' cheap password hashing.
 */
function refuseDevelopmentDefaults(env: z.infer<typeof envSchema>) {
  const missing = (['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'] as const).filter((name) => !env[name]);
  if (missing.length) {
    throw new ConfigError(`Invalid ${missing[0]}: must be set when NODE_ENV=production (the development payment keys are public)`);
  }
  if (!env.PAYMENTS_PROVIDER) {
    throw new ConfigError('Invalid PAYMENTS_PROVIDER: must be set when NODE_ENV=production (razorpay, or sandbox on purpose)');
  }
  if (env.PASSWORD_HASH_COST !== 'owasp') {
    throw new ConfigError('Invalid PASSWORD_HASH_COST: must be owasp when NODE_ENV=production (the test cost is for test runs only)');
  }
}

/** Half a bucket setting would quietly keep recordings on this machine's disk: stop and say what is missing. */
function refuseHalfAnS3Setting(env: z.infer<typeof envSchema>) {
  const pairs = [
    ['S3_URL', 'S3_BUCKET'],
    ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'],
  ] as const;
  for (const [a, b] of pairs) {
    if (Boolean(env[a]) !== Boolean(env[b])) {
      const [missing, given] = env[a] ? [b, a] : [a, b];
      throw new ConfigError(`Invalid ${missing}: must be set when ${given} is`);
    }
  }
  if (env.S3_ACCESS_KEY_ID && !env.S3_URL) {
    throw new ConfigError('Invalid S3_URL: must be set when S3_ACCESS_KEY_ID is');
  }
}

/**
 * TURN_URLS without its secret would hand out credentials coturn refuses, and a relay-only policy
 * without any TURN server would let no connection through: both stop the start.
 */
function refuseTurnWithoutRelay(env: z.infer<typeof envSchema>) {
  if (env.TURN_URLS && !env.TURN_SECRET) {
    throw new ConfigError("Invalid TURN_SECRET: must be set when TURN_URLS is (coturn's static-auth-secret)");
  }
  const listedTurn = (env.ICE_SERVERS ?? []).some((server) => [server.urls].flat().some((url) => /^turns?:/.test(url)));
  if (env.ICE_TRANSPORT_POLICY === 'relay' && !env.TURN_URLS && !listedTurn) {
    throw new ConfigError('Invalid ICE_TRANSPORT_POLICY: relay needs a TURN server (TURN_URLS, or a turn: URL in ICE_SERVERS)');
  }
}

/** JWT_SECRET when set; otherwise one generated on first start and kept in DATA_DIR. */
export function resolveJwtSecret(config: Config): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.join(config.dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
