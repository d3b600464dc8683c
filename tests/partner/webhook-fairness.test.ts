import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CreatedApiKey, CreatedWebhook } from '@locus/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';

// Issue 15: "a receiver answering slowly does not slow anything else". One team's endpoint
// holds every request it gets; another's answers at once. The worker has 4 delivery slots and
// gives an endpoint at most 2: the fast endpoint gets all its deliveries while the slow one
// still holds its first two, and the slow one never holds more than its share.

/** A receiver that answers at once, or holds each request until released. */
class Receiver {
  received = 0;
  held: ServerResponse[] = [];
  mostHeldAtOnce = 0;
  private waiters: (() => void)[] = [];
  private constructor(
    private readonly server: Server,
    private holding: boolean,
  ) {}

  static async start(holding: boolean): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server, holding);
    server.on('request', (request, response) => {
      request.resume();
      request.on('end', () => {
        receiver.received += 1;
        if (receiver.holding) {
          receiver.held.push(response);
          receiver.mostHeldAtOnce = Math.max(receiver.mostHeldAtOnce, receiver.held.length);
        } else response.writeHead(204).end();
        for (const wake of receiver.waiters.splice(0)) wake();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  release(): void {
    this.holding = false;
    for (const response of this.held.splice(0)) response.writeHead(204).end();
  }

  /** Bounded by the test's timeout: deliveries are sent by the worker. */
  async until(done: () => boolean): Promise<void> {
    while (!done()) await new Promise<void>((wake) => this.waiters.push(wake));
  }

  close(): Promise<void> {
    this.release();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let stack: AuthStack;
let key: CreatedApiKey;
let slow: Receiver;
let fast: Receiver;

beforeAll(async () => {
  slow = await Receiver.start(true);
  fast = await Receiver.start(false);
  stack = await startAuthStack({
    env: { WEBHOOK_ALLOW_HTTP: 'true' },
    workerEnv: {
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_DISPATCH_EVERY_MS: '100',
      WEBHOOK_CONCURRENCY: '4',
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: '2',
      // Longer than the test: a held request is never given up while the fast one is checked.
      WEBHOOK_TIMEOUT_MS: '120000',
    },
  });
  const teamAdmin = await signIn(stack.api, 'teamadmin@demo-county.test');
  const team = await stack.database.db
    .selectFrom('teams')
    .select('id')
    .where('team_name', '=', 'Demo County 911')
    .executeTakeFirstOrThrow();
  const created = await call<CreatedApiKey>(
    stack.api,
    'POST',
    `/api/v1/teams/${team.id}/api-keys`,
    { token: teamAdmin, body: { name: 'CAD', scopes: ['locate:write', 'webhooks:manage'] } },
  );
  key = created.body;
});

afterAll(async () => {
  await slow?.close();
  await fast?.close();
  await stack?.close();
});

const api = <T>(method: string, path: string, body?: unknown) =>
  call<T>(stack.api, method, path, { token: key.secret, ...(body === undefined ? {} : { body }) });

describe('webhook delivery slots', () => {
  it('let a slow receiver hold only its share, so other endpoints get theirs', async () => {
    const endpoints: CreatedWebhook[] = [];
    for (const receiver of [slow, fast]) {
      const endpoint = await api<CreatedWebhook>('POST', '/api/v1/partner/webhooks', {
        url: receiver.url,
        events: ['session.started'],
      });
      expect(endpoint.status).toBe(201);
      endpoints.push(endpoint.body);
    }
    // The slow endpoint also has a long backlog, older than anything to come: more rows than the
    // dispatcher looks at in one batch. It must not crowd the other endpoint out.
    const backlog = 2_500;
    await sql`
      insert into partner_webhook_deliveries (id, webhook_id, event, payload, next_attempt_at)
      select 'msg_backlog' || n, ${endpoints[0]!.webhook.id}, 'session.started',
        '{"type":"session.started","timestamp":"2026-11-29T00:00:00.000Z","data":{}}'::jsonb,
        now() - interval '1 hour' + n * interval '1 millisecond'
      from generate_series(1, ${backlog}) as n`.execute(stack.database.db);
    const locates = 6;
    for (let n = 0; n < locates; n += 1) {
      const located = await api('POST', '/api/v1/partner/locates', {
        phoneNumber: `+1202555014${n}`,
      });
      expect(located.status).toBe(201);
    }
    // All of the fast endpoint's deliveries, while the slow one still holds its first ones.
    await fast.until(() => fast.received === locates);
    expect(slow.received).toBeLessThanOrEqual(2);
    expect(slow.mostHeldAtOnce).toBeLessThanOrEqual(2);
    // Once it answers, its deliveries go on, never more than two at a time.
    slow.release();
    await slow.until(() => slow.received >= 2 * 2);
    expect(slow.mostHeldAtOnce).toBeLessThanOrEqual(2);
  });
});
