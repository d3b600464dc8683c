import type {
  ApproveBody,
  Approved,
  AttachableTeam,
  ClearedDomain,
  PageQuery,
  WaitingReason,
  WaitingUser,
} from '@locus/contract';
import type { Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import type { AppDeps } from '../../platform/deps';
import { recordAudit } from '../audit/repo';
import type { Principal } from '../auth/guard';
import { Mailer } from '../email/service';
import { verificationRejectedEmail } from '../email/templates';
import {
  addTeamMember,
  deleteClearedDomain,
  findTeamName,
  insertBasicTeam,
  insertClearedDomain,
  listAttachableTeams,
  listClearedDomains,
  listWaitingUsers,
  lockCandidate,
  recordDecision,
  type WaitingUserRow,
} from './repo';

const userNotFound = () => new ApiError(404, 'not-found', 'No such user.');
const notWaiting = () =>
  new ApiError(
    409,
    'conflict',
    'This user is not waiting for verification: they were decided on already, or their agency and domain need no approval.',
  );

function toWaitingUser(row: WaitingUserRow): WaitingUser {
  const reasons: WaitingReason[] = [];
  if (row.unlisted_agency) reasons.push('unlisted-agency');
  if (row.domain_not_cleared) reasons.push('domain-not-cleared');
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phoneNumber: row.phone_number,
    domain: row.domain,
    registeredAt: row.created_at.toISOString(),
    reasons,
    unlistedAgencyName: row.unlisted_agency ? row.company_name : null,
    agencyName: row.agency_name,
  };
}

const toDomain = (row: { domain: string; created_at: Date }): ClearedDomain => ({
  domain: row.domain,
  createdAt: row.created_at.toISOString(),
});

/**
 * The platform owner vets accounts no agency vouches for (issue 11). Every entry point is for
 * platform admins only (`requirePlatformAdmin` in routes.ts); every change is one transaction,
 * audited in it, so a refusal leaves nothing half-written.
 */
export class VerificationService {
  private readonly db: Database;
  private readonly mailer: Mailer;

  constructor(deps: AppDeps) {
    this.db = deps.db;
    this.mailer = new Mailer(deps.queues, deps.log);
  }

  async queue(page: PageQuery) {
    const { rows, total } = await listWaitingUsers(this.db, {
      limit: page.pageSize,
      offset: (page.page - 1) * page.pageSize,
    });
    return { items: rows.map(toWaitingUser), total, page: page.page, pageSize: page.pageSize };
  }

  async teams(): Promise<AttachableTeam[]> {
    return (await listAttachableTeams(this.db)).map((team) => ({
      id: team.id,
      teamName: team.team_name,
      isActive: team.is_active,
    }));
  }

  async approve(
    principal: Principal,
    userId: string,
    body: ApproveBody,
    ip: string,
  ): Promise<Approved> {
    return this.db.transaction().execute(async (trx) => {
      const candidate = await lockCandidate(trx, userId);
      if (!candidate) throw userNotFound();
      if (!candidate.waiting) throw notWaiting();
      let team: { id: string; name: string; created: boolean };
      let role: 'admin' | 'member';
      if ('teamId' in body) {
        const name = await findTeamName(trx, body.teamId);
        if (name === undefined) throw new ApiError(404, 'not-found', 'No such team.');
        team = { id: body.teamId, name, created: false };
        role = body.role;
      } else {
        const id = await insertBasicTeam(trx, body.newTeamName);
        if (id === undefined)
          throw new ApiError(409, 'conflict', 'A team with this name exists already.', [
            { path: 'newTeamName', message: 'A team with this name exists already' },
          ]);
        team = { id, name: body.newTeamName, created: true };
        // The first member of a new agency's team runs it.
        role = 'admin';
        await recordAudit(trx, {
          actorUserId: principal.userId,
          action: 'team.created',
          subject: id,
          detail: { teamName: body.newTeamName, viaVerificationOf: userId },
          teamId: id,
          ip,
        });
      }
      await addTeamMember(trx, { teamId: team.id, userId, role });
      await recordDecision(trx, {
        userId,
        status: 'approved',
        decidedBy: principal.userId,
        reason: null,
      });
      const reasons = toWaitingUser(candidate.row).reasons;
      await recordAudit(trx, {
        actorUserId: principal.userId,
        action: 'verification.approved',
        subject: userId,
        detail: {
          email: candidate.row.email,
          teamName: team.name,
          role,
          teamCreated: team.created,
          reasons,
        },
        // The team's admins see who joined their team this way.
        teamId: team.id,
        ip,
      });
      return { userId, teamId: team.id, teamName: team.name, role, teamCreated: team.created };
    });
  }

  async reject(
    principal: Principal,
    userId: string,
    reason: string,
    ip: string,
  ): Promise<{ userId: string }> {
    const emailId = await this.db.transaction().execute(async (trx) => {
      const candidate = await lockCandidate(trx, userId);
      if (!candidate) throw userNotFound();
      if (!candidate.waiting) throw notWaiting();
      await recordDecision(trx, {
        userId,
        status: 'rejected',
        decidedBy: principal.userId,
        reason,
      });
      await recordAudit(trx, {
        actorUserId: principal.userId,
        action: 'verification.rejected',
        subject: userId,
        detail: { email: candidate.row.email, reason },
        teamId: null,
        ip,
      });
      // Written in the same transaction: the e-mail exists exactly when the decision does.
      return this.mailer.write(
        trx,
        verificationRejectedEmail({
          to: candidate.row.email,
          firstName: candidate.row.first_name,
          reason,
        }),
      );
    });
    await this.mailer.enqueue([emailId]);
    return { userId };
  }

  async domains(): Promise<ClearedDomain[]> {
    return (await listClearedDomains(this.db)).map(toDomain);
  }

  async addDomain(principal: Principal, domain: string, ip: string): Promise<ClearedDomain> {
    return this.db.transaction().execute(async (trx) => {
      const row = await insertClearedDomain(trx, domain);
      if (!row)
        throw new ApiError(409, 'conflict', `${domain} is cleared already.`, [
          { path: 'domain', message: 'This domain is cleared already' },
        ]);
      await recordAudit(trx, {
        actorUserId: principal.userId,
        action: 'verification.domain-added',
        subject: domain,
        teamId: null,
        ip,
      });
      return toDomain(row);
    });
  }

  async removeDomain(principal: Principal, domain: string, ip: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (!(await deleteClearedDomain(trx, domain)))
        throw new ApiError(404, 'not-found', `${domain} is not a cleared domain.`);
      await recordAudit(trx, {
        actorUserId: principal.userId,
        action: 'verification.domain-removed',
        subject: domain,
        teamId: null,
        ip,
      });
    });
  }
}
