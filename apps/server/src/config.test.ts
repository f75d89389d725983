import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, passwordHashCost, resolveJwtSecret } from './config';

describe('configuration', () => {
  it('takes the contract defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.accessTokenTtl).toBe(900);
    expect(config.refreshTokenTtl).toBe(1_209_600);
    expect(config.trialDays).toBe(7);
    expect(config.payments.provider).toBe('sandbox');
    expect(config.seedDemo).toBe(false);
    expect(config.maxRecordingBytes).toBe(2048 * 1024 * 1024);
  });

  it('stops on a bad value with one line naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid PORT: /);
    expect(() => loadConfig({ PAYMENTS_PROVIDER: 'paypal' })).toThrow(/PAYMENTS_PROVIDER/);
    expect(() => loadConfig({ ICE_SERVERS: 'not json' })).toThrow(/ICE_SERVERS/);
  });

  it('keeps recordings in files unless both S3_URL and S3_BUCKET are set, and stops on half a bucket setting', () => {
    expect(loadConfig({}).s3).toBeNull();
    expect(loadConfig({ S3_URL: 'http://127.0.0.1:9000', S3_BUCKET: 'mooz-recordings' }).s3).toEqual({
      url: 'http://127.0.0.1:9000',
      bucket: 'mooz-recordings',
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
    });
    const keys = { S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret', S3_REGION: 'eu-west-3' };
    expect(loadConfig({ S3_URL: 'https://s3.example.com', S3_BUCKET: 'b-1', ...keys }).s3).toMatchObject({ region: 'eu-west-3', accessKeyId: 'id' });
    expect(() => loadConfig({ S3_URL: 'http://127.0.0.1:9000' })).toThrow(/^Invalid S3_BUCKET: must be set when S3_URL is$/);
    expect(() => loadConfig({ S3_BUCKET: 'mooz-recordings' })).toThrow(/^Invalid S3_URL: must be set when S3_BUCKET is$/);
    expect(() => loadConfig({ S3_URL: 'http://x', S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'id' })).toThrow(/^Invalid S3_SECRET_ACCESS_KEY: /);
    expect(() => loadConfig({ S3_URL: 'not a url', S3_BUCKET: 'b-1' })).toThrow(/^Invalid S3_URL: /);
    expect(() => loadConfig({ S3_URL: 'http://x', S3_BUCKET: 'Not_A_Bucket' })).toThrow(/^Invalid S3_BUCKET: /);
  });

  it('generates a JWT secret once and keeps it in DATA_DIR', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mooz-config-'));
    try {
      const config = loadConfig({ DATA_DIR: dir });
      const first = resolveJwtSecret(config);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(resolveJwtSecret(config)).toBe(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('trusts no proxy unless told, and then only a hop count or the listed addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16' }).trustProxy).toEqual(['10.0.0.1', '192.168.0.0/16']);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/^Invalid TRUST_PROXY: /);
  });

  it('refuses to start in production with the public development payment keys or a sandbox nobody chose', () => {
    const keys = { RAZORPAY_KEY_ID: 'rzp_live_x', RAZORPAY_KEY_SECRET: 'live-secret', RAZORPAY_WEBHOOK_SECRET: 'hook-secret' };
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENTS_PROVIDER: 'razorpay' })).toThrow(/^Invalid RAZORPAY_KEY_ID: .*production/);
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENTS_PROVIDER: 'razorpay', ...keys, RAZORPAY_WEBHOOK_SECRET: '' })).toThrow(
      /RAZORPAY_WEBHOOK_SECRET/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', ...keys })).toThrow(/^Invalid PAYMENTS_PROVIDER: /);
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS_PROVIDER: 'razorpay', ...keys }).payments.usesDevKeys).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS_PROVIDER: 'sandbox', ...keys }).payments.provider).toBe('sandbox');
    // Development keeps its defaults, with a warning at start.
    expect(loadConfig({}).payments.usesDevKeys).toBe(true);
  });

  it("hashes passwords at OWASP's cost unless a test run asks for the cheap one, which production refuses", () => {
    expect(passwordHashCost({})).toEqual({ memoryCost: 19_456, timeCost: 2 });
    expect(passwordHashCost({ PASSWORD_HASH_COST: 'owasp' })).toEqual(passwordHashCost({}));
    expect(passwordHashCost({ PASSWORD_HASH_COST: 'test' }).memoryCost).toBeLessThan(19_456);
    expect(() => loadConfig({ PASSWORD_HASH_COST: 'cheap' })).toThrow(/^Invalid PASSWORD_HASH_COST: /);
    const production = {
      NODE_ENV: 'production',
      PAYMENTS_PROVIDER: 'razorpay',
      RAZORPAY_KEY_ID: 'rzp_live_x',
      RAZORPAY_KEY_SECRET: 'live-secret',
      RAZORPAY_WEBHOOK_SECRET: 'hook-secret',
    };
    expect(() => loadConfig({ ...production, PASSWORD_HASH_COST: 'test' })).toThrow(/^Invalid PASSWORD_HASH_COST: .*production/);
    expect(() => loadConfig(production)).not.toThrow();
  });
});
