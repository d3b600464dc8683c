import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisPrefix } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { FakeCollector } from './fake-collector';
import {
  alertRuleExprs,
  dashboardExprs,
  exposedNames,
  metricNamesIn,
  sampleValue,
} from './metric-names';
import { freePort } from '../../infra/src/free-port';
import { eventually, startService, untilServing, type ServiceProcess } from './processes';

const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;

let database: TestDatabase;
let collector: FakeCollector;
let api: ServiceProcess;
let worker: ServiceProcess;
let apiUrl: string;
let workerMetricsUrl: string;
let keyDir: string;

beforeAll(async () => {
  database = await freshDatabase();
  collector = await FakeCollector.start();
  keyDir = mkdtempSync(join(tmpdir(), 'locus-observability-'));
  const [apiPort, workerPort, closedSmtpPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
  ]);
  apiUrl = `http://127.0.0.1:${apiPort}`;
  workerMetricsUrl = `http://127.0.0.1:${workerPort}/metrics`;
  const redisPrefix = testRedisPrefix();
  // The API exports JSON and the worker the default protobuf: one trace proves both encodings.
  const tracing = {
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    // The SDK's batch exporter: flush every 200 ms rather than 5 s.
    OTEL_BSP_SCHEDULE_DELAY: '200',
    LOG_LEVEL: 'info',
  };
  api = startService('api', {
    databaseUrl: database.url,
    redisPrefix,
    env: {
      ...tracing,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      HOST: '127.0.0.1',
      PORT: String(apiPort),
    },
  });
  worker = startService('worker', {
    databaseUrl: database.url,
    redisPrefix,
    env: {
      ...tracing,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      WORKER_METRICS_PORT: String(workerPort),
      // Nothing listens there: every e-mail attempt fails at once, a job failure to count.
      EMAIL_PROVIDER: 'smtp',
      SMTP_URL: `smtp://127.0.0.1:${closedSmtpPort}`,
      EVIDENCE_SIGNING_KEY_FILE: join(keyDir, 'evidence.pem'),
    },
  });
  await Promise.all([
    untilServing(api, `${apiUrl}/api/v1/health`),
    untilServing(worker, workerMetricsUrl),
  ]);
}, 90_000);

afterAll(async () => {
  await api?.stop();
  await worker?.stop();
  await collector?.close();
  await database?.drop();
  if (keyDir) rmSync(keyDir, { recursive: true, force: true });
});

async function demoRequest(requestId: string): Promise<Response> {
  return fetch(`${apiUrl}/api/v1/auth/demo-request`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.org',
      phoneNumber: '+12025550123',
      companyName: 'Observability County',
    }),
  });
}

describe('tracing and request ids', () => {
  it('trace a request through Postgres and Redis into the job it enqueues, and log its id in the worker', async () => {
    const requestId = `obs-${randomUUID()}`;
    const answer = await demoRequest(requestId);
    expect(answer.status).toBe(202);
    expect(answer.headers.get('x-request-id')).toBe(requestId);

    // The worker's log line for that job (its attempt fails: no SMTP server) names the request.
    const line = await eventually('the worker to log the job with the request id', () =>
      worker.lines.find((each) => each.includes(requestId)),
    );
    expect(JSON.parse(line)).toMatchObject({
      reqId: requestId,
      job: 'email.send',
      msg: 'job failed',
    });

    const jobSpan = await eventually('the worker to export the job span', () =>
      collector.spans.find(
        (span) => span.kind === CONSUMER && span.attributes['locus.request_id'] === requestId,
      ),
    );
    expect(jobSpan).toMatchObject({
      service: 'locus-worker',
      name: 'process email',
      attributes: { 'messaging.system': 'bullmq', 'locus.job.name': 'email.send' },
    });
    const inTrace = () => collector.spans.filter((span) => span.traceId === jobSpan.traceId);
    const httpSpan = await eventually('the API to export the HTTP span', () =>
      inTrace().find((span) => span.service === 'locus-api' && span.kind === SERVER),
    );
    expect(httpSpan.attributes['http.route'] ?? httpSpan.name).toMatch(/demo-request/);
    expect(collector.descendsFrom(jobSpan, httpSpan)).toBe(true);
    // The worker's spans came as protobuf, the API's as JSON.
    expect(collector.requestsBy.protobuf).toBeGreaterThan(0);
    expect(collector.requestsBy.json).toBeGreaterThan(0);

    const dbSystem = (span: { attributes: Record<string, unknown> }) =>
      span.attributes['db.system.name'] ?? span.attributes['db.system'];
    const apiChildren = (system: string) =>
      inTrace().filter(
        (span) =>
          span.service === 'locus-api' &&
          span.kind === CLIENT &&
          dbSystem(span) === system &&
          collector.descendsFrom(span, httpSpan),
      );
    const postgres = await eventually('a Postgres span under the request', () =>
      apiChildren('postgresql').at(0),
    );
    const redis = await eventually('a Redis span under the request', () =>
      apiChildren('redis').at(0),
    );
    expect(postgres.traceId).toBe(httpSpan.traceId);
    expect(redis.traceId).toBe(httpSpan.traceId);
    // The worker's own queries run inside the job's span.
    await eventually('a Postgres span under the job', () =>
      inTrace().find(
        (span) =>
          span.service === 'locus-worker' &&
          dbSystem(span) === 'postgresql' &&
          collector.descendsFrom(span, jobSpan),
      ),
    );
  });

  it('replace an incoming request id that is not sane', async () => {
    const answer = await demoRequest('x'.repeat(200));
    expect(answer.status).toBe(202);
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('metrics', () => {
  it('export every metric the dashboard and the alert rules use', async () => {
    // A text that failed, for the texts-by-status gauge.
    await database.db
      .insertInto('sms_messages')
      .values({
        body: 'test',
        direction: 'outbound',
        phone_number: '+12025550150',
        status: 'failed',
      })
      .execute();
    // The failed e-mail job of the tracing test waits for its retry (10 s backoff).
    const workerText = await eventually('the worker to count the failed attempt', async () => {
      const text = await (await fetch(workerMetricsUrl)).text();
      const failures = sampleValue(
        text,
        'locus_job_failures_total{queue="email",job="email.send",final="false"}',
      );
      return failures !== undefined && failures >= 1 ? text : undefined;
    });
    const apiText = await (await fetch(`${apiUrl}/metrics`)).text();
    expect(sampleValue(apiText, 'locus_sms_last_hour{status="failed"}')).toBe(1);
    expect(sampleValue(apiText, 'locus_sms_last_hour{status="delivered"}')).toBe(0);
    expect(
      sampleValue(apiText, 'locus_queue_jobs{queue="email",state="delayed"}'),
    ).toBeGreaterThanOrEqual(1);

    const exposed = new Set([...exposedNames(apiText), ...exposedNames(workerText)]);
    const used = new Set([...dashboardExprs(), ...alertRuleExprs()].flatMap(metricNamesIn));
    expect(used.size).toBeGreaterThanOrEqual(10);
    expect([...used].filter((name) => !exposed.has(name))).toEqual([]);
  });

  it('read metric names out of PromQL', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.99, sum by (le) (rate(locus_delivery_seconds_bucket[$__rate_interval]))) * 1000',
      ),
    ).toEqual(['locus_delivery_seconds_bucket']);
    expect(
      metricNamesIn(
        'sum(max by (status) (locus_sms_last_hour{status=~"failed|undelivered"})) / sum(max by (status) (locus_sms_last_hour)) >= 0.05',
      ),
    ).toEqual(['locus_sms_last_hour', 'locus_sms_last_hour']);
  });
});
