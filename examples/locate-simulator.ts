/**
 * A partner's first integration, end to end: locate a number, follow the session until a
 * position arrives, read its fixes, end it. Against `npm start`'s demo, with a key made on
 * Admin → API (scopes locate:write and sessions:read):
 *
 *     LOCUS_URL=http://localhost:3000 LOCUS_API_KEY=lk_… npm run locate -w examples -- +12025550121
 *
 * The simulator finds +1 202 555 0100…0149 at once; 0150…0199 are texted a link instead (open it
 * from the dev outbox and share to see positions arrive).
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { createLocusClient } from '@locus/client';

export interface LocateResult {
  sessionId: string;
  stage: string;
  fixes: { latitude: number; longitude: number; uncertaintyRadiusInMeters: number }[];
}

export async function locateSimulatorNumber(options: {
  baseUrl: string;
  apiKey: string;
  phoneNumber: string;
  /** How long to wait for a first position. */
  waitMs?: number;
  log?: (line: string) => void;
}): Promise<LocateResult> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const locus = createLocusClient({ baseUrl: options.baseUrl, apiKey: options.apiKey });

  // One idempotency key per locate: retrying this request (a timeout, a restart) is safe.
  const started = await locus.partner.locate({
    body: { phoneNumber: options.phoneNumber, externalReference: 'example-script' },
    headers: { 'idempotency-key': randomUUID() },
  });
  if (started.status !== 201) throw new Error(`locate refused: ${JSON.stringify(started.body)}`);
  const sessionId = started.body.id;
  log(`session ${sessionId}: ${started.body.callers[0]?.link.stage}`);

  // Follow the session until a position is there (or give up).
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  let session = started.body;
  while (!session.latestFix && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const read = await locus.partner.session({ params: { sessionId } });
    if (read.status !== 200) throw new Error(`session unreadable: ${JSON.stringify(read.body)}`);
    session = read.body;
  }
  if (session.latestFix) {
    const { latitude, longitude, uncertaintyRadiusInMeters, source } = session.latestFix;
    log(`located at ${latitude}, ${longitude} (±${uncertaintyRadiusInMeters} m, ${source})`);
  } else log('no position yet');

  // Every fix, a page at a time.
  const fixes: LocateResult['fixes'] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await locus.partner.fixes({
      params: { sessionId },
      query: { limit: 100, ...(cursor ? { cursor } : {}) },
    });
    if (page.status !== 200) throw new Error(`fixes unreadable: ${JSON.stringify(page.body)}`);
    fixes.push(...page.body.fixes);
    cursor = page.body.nextCursor;
    if (!page.body.hasMore) break;
  }
  log(`${fixes.length} fix(es)`);

  const ended = await locus.partner.end({ params: { sessionId } });
  if (ended.status !== 200) throw new Error(`end refused: ${JSON.stringify(ended.body)}`);
  log(`ended at ${ended.body.endedAt}`);
  return { sessionId, stage: session.callers[0]?.link.stage ?? 'unknown', fixes };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const baseUrl = process.env.LOCUS_URL ?? 'http://localhost:3000';
  const apiKey = process.env.LOCUS_API_KEY;
  const phoneNumber = process.argv[2] ?? '+12025550121';
  if (!apiKey) {
    console.error('Set LOCUS_API_KEY to a key made on Admin → API.');
    process.exit(2);
  }
  await locateSimulatorNumber({ baseUrl, apiKey, phoneNumber });
}
