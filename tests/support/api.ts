import { buildApp, parseConfig } from '@locus/api';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { testEnvironment } from './environment';

export interface TestApi {
  app: FastifyInstance;
  url: string;
  wsUrl: string;
  close(): Promise<void>;
}

/** A unique Redis namespace per test file, so files sharing one Redis never see each other. */
export function testRedisPrefix(): string {
  return `test:${randomBytes(4).toString('hex')}:`;
}

/** A real API instance on a free loopback port. Instances sharing `databaseUrl` and `redisPrefix` form one cluster. */
export async function startApi(options: {
  databaseUrl: string;
  redisPrefix: string;
  env?: Record<string, string>;
}): Promise<TestApi> {
  const config = parseConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: testEnvironment.redisUrl(),
    REDIS_KEY_PREFIX: options.redisPrefix,
    LOG_LEVEL: 'warn',
    DB_POOL_MAX: '4',
    WEB_DIST_DIR: process.env.LOCUS_TEST_WEB_DIST ?? '/nonexistent',
    // Tests follow links through the dev outbox; the config refuses it where it must stay off.
    DEV_OUTBOX: devOutboxAllowed(options.env ?? {}) ? 'on' : 'off',
    // Every test signs in from 127.0.0.1, often with wrong passwords on purpose; the address
    // throttle has its own test (tests/auth/lockout-by-address.test.ts).
    SIGN_IN_FAILURES_PER_ADDRESS: '1000',
    SIGN_IN_ACCOUNTS_PER_ADDRESS: '1000',
    SIGN_IN_FAILURES_PER_SUBNET: '1000',
    ...options.env,
  });
  const app = await buildApp(config);
  // PORT 0 (a free port) unless a test needs to know it beforehand (say, for PUBLIC_URL).
  await app.listen({ host: '127.0.0.1', port: config.PORT });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    close: () => app.close(),
  };
}

/** The dev outbox is refused in production and next to a real e-mail or SMS provider. */
function devOutboxAllowed(env: Record<string, string>): boolean {
  return (
    env.NODE_ENV !== 'production' && env.EMAIL_PROVIDER !== 'smtp' && env.SMS_PROVIDER !== 'twilio'
  );
}
