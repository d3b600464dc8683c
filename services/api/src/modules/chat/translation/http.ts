/** What an HTTP engine's request came to: the parsed JSON body, or why there is none. */
export type HttpOutcome =
  | { ok: true; status: number; body: unknown }
  | { ok: false; reason: string; status?: number; body?: unknown };

/**
 * POSTs JSON with a deadline of its own besides the caller's signal, and reads the answer as JSON
 * whatever its status, so each engine can word its own errors. Never throws.
 */
export async function postJson(
  url: string,
  body: unknown,
  options: { headers?: Record<string, string>; signal: AbortSignal; timeoutMs: number },
): Promise<HttpOutcome> {
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...options.headers,
      },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (options.signal.aborted) return { ok: false, reason: 'aborted' };
    if (signal.aborted) return { ok: false, reason: 'timed out' };
    return { ok: false, reason: `unreachable (${(error as Error).message})` };
  }
  let parsed: unknown;
  try {
    parsed = await response.json();
  } catch {
    parsed = undefined;
    if (signal.aborted)
      return { ok: false, reason: options.signal.aborted ? 'aborted' : 'timed out' };
  }
  if (!response.ok)
    return { ok: false, reason: `HTTP ${response.status}`, status: response.status, body: parsed };
  return { ok: true, status: response.status, body: parsed };
}

/** A short, single-line excerpt of a vendor's error text for the log and the reason. */
export function excerpt(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim()
    ? value.trim().replace(/\s+/g, ' ').slice(0, 160)
    : undefined;
}
