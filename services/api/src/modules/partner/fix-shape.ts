import type { PartnerFix } from '@locus/contract';
import type { PartnerFixRow } from './sessions-repo';

/** A stored fix as partners see it: in `GET …/fixes`, a session's latest, and webhooks. */
export const toPartnerFix = (fix: PartnerFixRow): PartnerFix => ({
  seq: fix.seq,
  callerId: fix.callerId,
  latitude: fix.latitude,
  longitude: fix.longitude,
  uncertaintyRadiusInMeters: fix.uncertaintyRadiusM,
  altitude: fix.altitude,
  address: fix.address,
  source: fix.source,
  capturedAt: fix.capturedAt.toISOString(),
  receivedAt: fix.receivedAt.toISOString(),
});
