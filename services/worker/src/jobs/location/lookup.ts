import type { JobPayload } from '@locus/contract';
import type { JobContext } from '../../processor';
import { LookupError } from '../../providers/location';
import { answerLookup, findLookup, type LookupAnswer } from './repo';

/**
 * `location.lookup`: asks the emergency-data provider and writes the answer to the lookup's row,
 * which the waiting API request reads. Never throws for a provider's answer (the job is not
 * retried: the dispatcher has been offered a text message by then).
 */
export async function locationLookup(
  payload: JobPayload<'locationLookup'>,
  { db, log, lookup }: JobContext,
): Promise<{ status: LookupAnswer['status'] | 'skipped' }> {
  const row = await findLookup(db, payload.lookupId);
  if (!row || row.status !== 'pending') return { status: 'skipped' };
  let answer: LookupAnswer;
  try {
    const result = await lookup.locate(row.phone_number);
    answer = result.found
      ? {
          status: 'found',
          latitude: result.location.latitude,
          longitude: result.location.longitude,
          uncertaintyRadiusM: result.location.uncertaintyRadiusInMeters,
          altitude: result.location.altitude,
          address: result.location.address,
          capturedAt: new Date(result.location.capturedAt),
        }
      : { status: 'not-found' };
  } catch (error) {
    const code = error instanceof LookupError ? error.code : 'rapid-sos-unavailable';
    if (!(error instanceof LookupError)) log.error({ err: error }, 'location lookup failed');
    answer = { status: code === 'lookup-timeout' ? 'timed-out' : 'failed', error: code };
  }
  await answerLookup(db, payload.lookupId, answer);
  return { status: answer.status };
}
