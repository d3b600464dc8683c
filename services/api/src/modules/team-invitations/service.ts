import type { Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import { recordAudit } from '../audit/repo';
import { addTeamMembers, findTeam } from '../auth/repo';
import { hashToken, newToken } from '../sessions/tokens';
import { consumeInvitation, insertInvitation, type TeamRole } from './repo';

/** Creates an invitation and returns the code for its link (only its hash is stored). */
export async function createInvitation(
  db: Database,
  invitation: {
    teamId: string;
    userId: string;
    role: TeamRole;
    invitedBy: string;
    ttlSeconds: number;
  },
): Promise<string> {
  const { token, hash } = newToken();
  await insertInvitation(db, { ...invitation, codeHash: hash });
  return token;
}

/**
 * Following the link proves the invited address (the e-mail went only to it), so the code
 * alone is enough: the account joins the team with the role it was invited to.
 */
export async function acceptInvitation(
  db: Database,
  code: string,
): Promise<{ message: string; teamName: string }> {
  const teamName = await db.transaction().execute(async (trx) => {
    const invitation = await consumeInvitation(trx, hashToken(code));
    if (!invitation) return undefined;
    const role = invitation.role === 'admin' ? 'admin' : 'member';
    await addTeamMembers(trx, invitation.team_id, [{ userId: invitation.user_id, role }]);
    await recordAudit(trx, {
      actorUserId: invitation.user_id,
      action: 'team.invitation-accepted',
      subject: invitation.user_id,
      detail: { teamId: invitation.team_id, role, invitedBy: invitation.invited_by },
      teamId: invitation.team_id,
    });
    return (await findTeam(trx, invitation.team_id))?.team_name;
  });
  if (teamName === undefined) {
    throw new ApiError(400, 'invalid-code', 'This invitation is invalid, used or has expired.');
  }
  return { message: `You have joined ${teamName}. Sign in to start.`, teamName };
}
