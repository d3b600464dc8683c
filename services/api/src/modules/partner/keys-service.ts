import {
  apiKeyLimits,
  type CreateApiKeyInput,
  type ApiKey,
  type ApiKeyList,
  type CreatedApiKey,
} from '@locus/contract';
import type { Database } from '@locus/db';
import type { z } from 'zod';
import { ApiError } from '../../http/errors';
import { recordAudit } from '../audit/repo';
import { lockTeam } from '../teams/repo';
import type { Principal } from '../auth/guard';
import {
  countLiveKeys,
  findKey,
  insertKey,
  listKeys,
  revokeKey,
  type ApiKeyRow,
} from './keys-repo';
import { newApiKey } from './secrets';
import { requireEnterpriseTeamAdmin } from './team-access';

interface Actor {
  principal: Principal;
  ip: string;
}

function toApiKey(row: ApiKeyRow, now = Date.now()): ApiKey {
  const expired = row.expiresAt !== null && row.expiresAt.getTime() <= now;
  return {
    id: row.id,
    teamId: row.teamId,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes as ApiKey['scopes'],
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    status: row.revokedAt ? 'revoked' : expired ? 'expired' : 'active',
  };
}

export async function listApiKeys(
  db: Database,
  principal: Principal,
  teamId: string,
): Promise<ApiKeyList> {
  await requireEnterpriseTeamAdmin(db, principal, teamId, { creating: false });
  return { keys: (await listKeys(db, teamId)).map((row) => toApiKey(row)) };
}

export async function createApiKey(
  db: Database,
  { principal, ip }: Actor,
  teamId: string,
  input: z.output<typeof CreateApiKeyInput>,
): Promise<CreatedApiKey> {
  const team = await requireEnterpriseTeamAdmin(db, principal, teamId, { creating: true });
  const expiresAt = input.expiresAt === null ? null : new Date(input.expiresAt);
  if (expiresAt && expiresAt.getTime() <= Date.now())
    throw new ApiError(400, 'validation-failed', 'The expiry must be in the future.', [
      { path: 'expiresAt', message: 'Must be in the future' },
    ]);
  const { secret, prefix, hash } = newApiKey();
  // The count and the insert under the team's lock: two admins creating at once cannot both
  // take the last place.
  const id = await db.transaction().execute(async (trx) => {
    await lockTeam(trx, team.id);
    if ((await countLiveKeys(trx, team.id)) >= apiKeyLimits.keysPerTeam)
      throw new ApiError(
        409,
        'conflict',
        `A team can have at most ${apiKeyLimits.keysPerTeam} keys in use. Revoke one first.`,
      );
    const inserted = await insertKey(trx, {
      teamId: team.id,
      name: input.name,
      prefix,
      secretHash: hash,
      scopes: input.scopes,
      expiresAt,
      createdBy: principal.userId,
    });
    await recordAudit(trx, {
      actorUserId: principal.userId,
      action: 'api-key.created',
      subject: prefix,
      detail: { keyId: inserted, name: input.name, scopes: input.scopes },
      teamId: team.id,
      ip,
    });
    return inserted;
  });
  const row = await findKey(db, team.id, id);
  return { key: toApiKey(row!), secret };
}

export async function revokeApiKey(
  db: Database,
  { principal, ip }: Actor,
  teamId: string,
  id: string,
): Promise<ApiKey> {
  const team = await requireEnterpriseTeamAdmin(db, principal, teamId, { creating: false });
  const key = await findKey(db, team.id, id);
  if (!key) throw new ApiError(404, 'not-found', 'No such API key.');
  if (await revokeKey(db, id, principal.userId))
    await recordAudit(db, {
      actorUserId: principal.userId,
      action: 'api-key.revoked',
      subject: key.prefix,
      detail: { keyId: id, name: key.name },
      teamId: team.id,
      ip,
    });
  return toApiKey((await findKey(db, team.id, id))!);
}
