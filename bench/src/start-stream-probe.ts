// Issue 16's target "start-stream p99 ≤ 25 ms while the 5,000-session load runs": a dispatcher
// signed in to instance A opens new sessions at a steady rate while the generator's fixes flow,
// the way a console under a regional incident keeps taking calls. Open loop like the generator:
// request n is due at t0 + n / rate whatever happened to earlier ones, and its latency counts from
// that due time, so a stalled server cannot hide the requests it made wait.
import { DEMO_PASSWORD } from '@locus/db';
import { percentile, round2, sortedSamples } from './stats';

export interface StartStreamResult {
  requests: number;
  failed: number;
  /** The first failure's status and body, to say why. */
  firstFailure: string | null;
  latencyMs: { p50: number; p99: number; max: number } | null;
  ratePerSecond: number;
}

const dispatcherEmail = 'dispatcher@demo-county.test';
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Signs in the demo dispatcher (the bench seeds the demo teams) and returns a bearer token. */
export async function signInDispatcher(baseUrl: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: dispatcherEmail, password: DEMO_PASSWORD, staySignedIn: false }),
  });
  const body = (await answer.json()) as { token?: string };
  if (answer.status !== 200 || !body.token)
    throw new Error(`sign-in as ${dispatcherEmail} answered ${answer.status}`);
  return body.token;
}

/** POSTs start-stream `ratePerSecond` times a second for `durationMs`. */
export async function probeStartStream(options: {
  baseUrl: string;
  token: string;
  durationMs: number;
  ratePerSecond: number;
}): Promise<StartStreamResult> {
  const { baseUrl, token, durationMs, ratePerSecond } = options;
  const count = Math.floor((durationMs / 1000) * ratePerSecond);
  const latencies: number[] = [];
  let failed = 0;
  let firstFailure: string | null = null;
  const t0 = performance.now();
  const one = async (n: number): Promise<void> => {
    const due = t0 + (n * 1000) / ratePerSecond;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    // Distinct numbers in the simulator's range, so no two sessions look alike.
    const phoneNumber = `+1202555${String(100 + (n % 100)).padStart(4, '0')}`;
    try {
      const answer = await fetch(`${baseUrl}/api/v1/location/start-stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ phoneNumber }),
      });
      const text = await answer.text();
      if (answer.status !== 200) {
        failed += 1;
        firstFailure ??= `${answer.status} ${text.slice(0, 200)}`;
        return;
      }
      latencies.push(performance.now() - due);
    } catch (error) {
      failed += 1;
      firstFailure ??= error instanceof Error ? error.message : String(error);
    }
  };
  await Promise.all(Array.from({ length: count }, (_, n) => one(n)));
  const sorted = sortedSamples(latencies);
  return {
    requests: count,
    failed,
    firstFailure,
    ratePerSecond,
    latencyMs:
      sorted.length === 0
        ? null
        : {
            p50: round2(percentile(sorted, 0.5)),
            p99: round2(percentile(sorted, 0.99)),
            max: round2(sorted[sorted.length - 1] ?? Number.NaN),
          },
  };
}
