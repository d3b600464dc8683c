import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LookupError } from '../../services/worker/src/providers/location/provider';
import { RapidSosLookupProvider } from '../../services/worker/src/providers/location/rapid-sos';
import { FakeRapidSos } from '../fakes/rapid-sos-server';

// The production adapter against a fake provider speaking the same HTTP API.
let fake: FakeRapidSos;

beforeAll(async () => {
  fake = await FakeRapidSos.start();
});

afterAll(async () => {
  await fake?.close();
});

beforeEach(() => {
  fake.locations.clear();
  fake.requests.length = 0;
  fake.rateLimitNext = 0;
  fake.delayMs = 0;
  fake.failWith = null;
  fake.tokenLifetimeSeconds = 3600;
});

const provider = (
  overrides: Partial<ConstructorParameters<typeof RapidSosLookupProvider>[0]> = {},
) =>
  new RapidSosLookupProvider({
    baseUrl: fake.url,
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    timeoutMs: 2_000,
    maxRateLimitRetries: 2,
    ...overrides,
  });

const caller = '+12025550123';

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LookupError) return error.code;
    throw error;
  }
  throw new Error('expected the lookup to fail');
}

describe('the RapidSOS-style lookup adapter', () => {
  it("returns the newest of the device's locations", async () => {
    fake.locations.set(caller, [
      { latitude: 38.1, longitude: -77.1, uncertainty_radius: 40, created_time: 1_000 },
      {
        latitude: 38.2,
        longitude: -77.2,
        uncertainty_radius: 12.5,
        altitude: 31.25,
        civic_address: '1600 Pennsylvania Ave NW',
        created_time: 2_000,
      },
    ]);
    expect(await provider().locate(caller)).toEqual({
      found: true,
      location: {
        latitude: 38.2,
        longitude: -77.2,
        uncertaintyRadiusInMeters: 12.5,
        altitude: 31.25,
        address: '1600 Pennsylvania Ave NW',
        capturedAt: 2_000,
      },
    });
    const lookup = fake.requests.find((r) => r.path === '/v1/location');
    expect(lookup?.authorization).toMatch(/^Bearer [0-9a-f]{32}$/);
  });

  it('says "not found" for a number the provider has no record of', async () => {
    expect(await provider().locate('+12025550199')).toEqual({ found: false });
  });

  it('caches the token until it expires, and fetches one token for concurrent lookups', async () => {
    fake.locations.set(caller, [
      { latitude: 1, longitude: 2, uncertainty_radius: 3, created_time: 4 },
    ]);
    const adapter = provider();
    await Promise.all([adapter.locate(caller), adapter.locate(caller), adapter.locate(caller)]);
    await adapter.locate(caller);
    expect(fake.tokensIssued()).toBe(1);

    // A token within its refresh margin is replaced before use.
    fake.tokenLifetimeSeconds = 10;
    const shortLived = provider();
    await shortLived.locate(caller);
    await shortLived.locate(caller);
    expect(fake.tokensIssued()).toBe(3);
  });

  it('refreshes a revoked token once and retries', async () => {
    fake.locations.set(caller, [
      { latitude: 1, longitude: 2, uncertainty_radius: 3, created_time: 4 },
    ]);
    const adapter = provider();
    await adapter.locate(caller);
    fake.revokeTokens();
    expect((await adapter.locate(caller)).found).toBe(true);
    expect(fake.tokensIssued()).toBe(2);
  });

  it('reports wrong keys as lookup-unavailable-invalid-keys', async () => {
    expect(await codeOf(provider({ clientSecret: 'wrong' }).locate(caller))).toBe(
      'lookup-unavailable-invalid-keys',
    );
  });

  it('waits out a rate limit, and gives up as rapid-sos-unavailable when it persists', async () => {
    fake.locations.set(caller, [
      { latitude: 1, longitude: 2, uncertainty_radius: 3, created_time: 4 },
    ]);
    fake.rateLimitNext = 2;
    expect((await provider().locate(caller)).found).toBe(true);
    fake.rateLimitNext = 5;
    expect(await codeOf(provider().locate(caller))).toBe('rapid-sos-unavailable');
  });

  it("passes the provider's { detail } on when it is down", async () => {
    fake.failWith = { status: 503, detail: 'Maintenance window' };
    const error = await provider()
      .locate(caller)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LookupError);
    expect((error as LookupError).code).toBe('rapid-sos-unavailable');
    expect((error as LookupError).message).toBe('Maintenance window');
  });

  it('times out rather than keep the dispatcher waiting', async () => {
    fake.delayMs = 1_000;
    expect(await codeOf(provider({ timeoutMs: 150 }).locate(caller))).toBe('lookup-timeout');
  });

  it('reports an unreachable provider as rapid-sos-unavailable', async () => {
    expect(await codeOf(provider({ baseUrl: 'http://127.0.0.1:1' }).locate(caller))).toBe(
      'rapid-sos-unavailable',
    );
  });
});
