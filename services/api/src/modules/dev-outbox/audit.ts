import type { AppDeps } from '../../platform/deps';
import { recordAudit } from '../audit/repo';

/** Tests and demo pages poll the outbox every few hundred ms: one audit row per window is enough. */
export const outboxAuditWindowSeconds = 10 * 60;

/**
 * Records that someone read (or wrote to) the dev outbox: once per client address, box and
 * window, so the audit trail shows who looked without one row per poll.
 */
export async function auditOutboxRead(
  deps: Pick<AppDeps, 'db' | 'redis' | 'config'>,
  access: { ip: string; box: 'email' | 'sms' | 'sms-inbound' },
): Promise<void> {
  const key = `${deps.config.REDIS_KEY_PREFIX}dev-outbox:audited:${access.box}:${access.ip}`;
  const first = await deps.redis.set(key, '1', 'EX', outboxAuditWindowSeconds, 'NX');
  if (first !== 'OK') return;
  await recordAudit(deps.db, {
    actorUserId: null,
    action: 'dev-outbox.read',
    subject: access.ip,
    detail: { box: access.box, ip: access.ip },
  });
}
