import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';

let database: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  database = await freshDatabase();
  api = await startApi({ databaseUrl: database.url, redisPrefix: testRedisPrefix() });
});

afterAll(async () => {
  await api?.close();
  await database?.drop();
});

describe('health', () => {
  it('reports Postgres and Redis as up', async () => {
    const response = await fetch(`${api.url}/api/v1/health`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      status: string;
      checks: Record<string, { ok: boolean }>;
    };
    expect(body.status).toBe('ok');
    expect(body.checks.postgres?.ok).toBe(true);
    expect(body.checks.redis?.ok).toBe(true);
  });

  it('answers 503 with the failing check when Postgres is unreachable', async () => {
    const broken = await startApi({
      databaseUrl: 'postgres://nobody:wrong@127.0.0.1:1/none',
      redisPrefix: testRedisPrefix(),
    });
    try {
      const response = await fetch(`${broken.url}/api/v1/health`);
      expect(response.status).toBe(503);
      const body = (await response.json()) as {
        status: string;
        checks: { postgres: { ok: boolean; error?: string } };
      };
      expect(body.status).toBe('unavailable');
      expect(body.checks.postgres.ok).toBe(false);
      expect(body.checks.postgres.error).toBeTruthy();
    } finally {
      await broken.close();
    }
  });
});

describe('errors', () => {
  it('use one shape for unknown routes', async () => {
    const response = await fetch(`${api.url}/api/v1/nothing-here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not-found', message: expect.any(String) });
  });

  it('use one shape for malformed JSON', async () => {
    const response = await fetch(`${api.url}/api/v1/health`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect([400, 404]).toContain(response.status);
    const body = (await response.json()) as { error: string };
    expect(['validation-failed', 'not-found']).toContain(body.error);
  });
});

describe('docs and metrics', () => {
  it('serves an OpenAPI document generated from the contract, and the interactive docs', async () => {
    const document = (await (await fetch(`${api.url}/api/docs/json`)).json()) as {
      info: { title: string; description: string };
      paths: Record<string, unknown>;
    };
    expect(document.info.title).toBe('Locus API');
    expect(Object.keys(document.paths)).toContain('/api/v1/health');
    expect(document.info.description).toContain('new-location-available');
    const page = await fetch(`${api.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger');
  });

  it('exposes Prometheus metrics, including the pipeline counters', async () => {
    const text = await (await fetch(`${api.url}/metrics`)).text();
    expect(text).toContain('locus_fixes_accepted_total');
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('sets security headers', async () => {
    const response = await fetch(`${api.url}/api/v1/health`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
  });
});

describe('the realtime protocol in the docs', () => {
  it('describes the payload of every socket event', async () => {
    const document = (await (await fetch(`${api.url}/api/docs/json`)).json()) as {
      components: {
        schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
      };
    };
    const fix = document.components.schemas['caller.send.fix'];
    expect(Object.keys(fix?.properties ?? {})).toEqual(
      expect.arrayContaining(['latitude', 'longitude', 'accuracy', 'capturedAt']),
    );
    const location = document.components.schemas['dispatcher.receive.new-location-available'];
    expect(location?.required).toEqual(
      expect.arrayContaining([
        'seq',
        'latitude',
        'longitude',
        'uncertaintyRadiusInMeters',
        'capturedFromSource',
        'dateTimeCaptured',
      ]),
    );
    expect(document.components.schemas['dispatcher.send.join']).toBeDefined();
  });
});
