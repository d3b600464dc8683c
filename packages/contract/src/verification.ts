import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { PageQuery, pageOf, TeamRole } from './admin-common';
import { ErrorBody } from './errors';

const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** The limits of the verification screen. */
export const verificationLimits = {
  reasonMaxLength: 500,
  teamNameMaxLength: 100,
  domainMaxLength: 253,
} as const;

const ACCESS =
  'Platform admins only (SPEC.md §5: the platform owner’s own company); anyone else, team ' +
  'admins included, gets 403 `forbidden`.';

/**
 * Why a user waits for the platform owner: they registered with an agency that is not listed
 * (`unlisted-agency`: the name they typed is `unlistedAgencyName`), and/or their e-mail domain
 * is not in the cleared list (`domain-not-cleared`: locating answers them `unauthorized-domain`
 * until they are approved).
 */
export const WaitingReason = z.enum(['unlisted-agency', 'domain-not-cleared']);
export type WaitingReason = z.infer<typeof WaitingReason>;

export const waitingReasonLabels: Record<WaitingReason, string> = {
  'unlisted-agency': 'Agency not listed',
  'domain-not-cleared': 'E-mail domain not cleared',
};

/** One user in the verification queue. */
export const WaitingUser = z.object({
  id: z.string().uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phoneNumber: z.string().nullable(),
  /** The e-mail address's domain, lower-cased. */
  domain: z.string(),
  /** When the account was created (ISO 8601); the queue is oldest first. */
  registeredAt: z.string().datetime(),
  reasons: z.array(WaitingReason).min(1),
  /** The agency name the user typed when their agency was not listed; null otherwise. */
  unlistedAgencyName: z.string().nullable(),
  /** The listed agency (PSAP) the user chose, if any. */
  agencyName: z.string().nullable(),
});
export type WaitingUser = z.infer<typeof WaitingUser>;

/** A team a waiting user can be attached to. */
export const AttachableTeam = z.object({
  id: z.string().uuid(),
  teamName: z.string(),
  isActive: z.boolean(),
});
export type AttachableTeam = z.infer<typeof AttachableTeam>;

export const VerificationTeamName = z
  .string()
  .trim()
  .min(1)
  .max(verificationLimits.teamNameMaxLength);

/**
 * Approve: attach the user to an existing team with a role, or create a new team (basic level,
 * active) with the user as its team admin.
 */
export const ApproveBody = z.union([
  z.object({ teamId: z.string().uuid(), role: TeamRole }).strict(),
  z.object({ newTeamName: VerificationTeamName }).strict(),
]);
export type ApproveBody = z.infer<typeof ApproveBody>;

export const Approved = z.object({
  userId: z.string().uuid(),
  teamId: z.string().uuid(),
  teamName: z.string(),
  role: TeamRole,
  /** True when the team was created by this approval. */
  teamCreated: z.boolean(),
});
export type Approved = z.infer<typeof Approved>;

export const RejectBody = z.object({
  reason: z.string().trim().min(1).max(verificationLimits.reasonMaxLength),
});
export type RejectBody = z.infer<typeof RejectBody>;

/**
 * A cleared e-mail domain: lower-case labels of letters, digits and hyphens (not at either end
 * of a label), at least two labels, the last one letters only. Typed case does not matter.
 */
export const EmailDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(verificationLimits.domainMaxLength)
  .regex(
    /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'Enter a domain such as county.gov, without @ or spaces',
  );

export const ClearedDomain = z.object({
  domain: z.string(),
  createdAt: z.string().datetime(),
});
export type ClearedDomain = z.infer<typeof ClearedDomain>;

const UserId = z.object({ id: z.string().uuid() });

export const verificationContract = c.router(
  {
    queue: {
      method: 'GET',
      path: '/api/v1/verification/queue',
      summary: 'Users waiting for verification, oldest first, with why each one waits',
      description:
        'A user waits when they have confirmed their e-mail address, have no decision yet, are ' +
        'not a coast-guard applicant (those have their own approval), and either have an e-mail ' +
        'domain that is not cleared (even when a team admin added them to a team) or registered ' +
        'with an agency that is not listed and are on no team. Approving someone already on the ' +
        'chosen team keeps their role. Paginated (page, pageSize), ordered by registration time ' +
        `then id. ${ACCESS}`,
      query: PageQuery,
      responses: { 200: pageOf(WaitingUser), ...errors },
    },
    teams: {
      method: 'GET',
      path: '/api/v1/verification/teams',
      summary: 'Every team a waiting user can be attached to, by name',
      description: ACCESS,
      responses: { 200: z.array(AttachableTeam), ...errors },
    },
    approve: {
      method: 'POST',
      path: '/api/v1/verification/users/:id/approve',
      summary: 'Approve a waiting user: attach them to a team, or create their team',
      description:
        '`{ teamId, role }` adds the user to that team with the role (`admin` is "Team admin", ' +
        '`member` "Dispatcher"); `{ newTeamName }` creates an active team at basic level with the ' +
        'user as its team admin. The approval also counts as the cleared domain for this user, so ' +
        'they can locate on their next request without signing in again. Audited ' +
        '`verification.approved`. 404 `not-found` for an unknown user or team; 409 `conflict` ' +
        `when the user is not waiting (decided already, or on a team) or the team name is taken. ${ACCESS}`,
      pathParams: UserId,
      body: ApproveBody,
      responses: { 200: Approved, ...errors },
    },
    reject: {
      method: 'POST',
      path: '/api/v1/verification/users/:id/reject',
      summary: 'Reject a waiting user with a reason (1–500 characters) that is e-mailed to them',
      description:
        'The user leaves the queue and gets an e-mail with the reason; their account stays, and ' +
        'they still cannot locate. Audited `verification.rejected`. 404 `not-found` for an ' +
        `unknown user; 409 \`conflict\` when the user is not waiting. ${ACCESS}`,
      pathParams: UserId,
      body: RejectBody,
      responses: { 200: z.object({ userId: z.string().uuid() }), ...errors },
    },
    domains: {
      method: 'GET',
      path: '/api/v1/verification/domains',
      summary: 'The cleared e-mail domains, alphabetically',
      description: `Users whose address is on one of these may locate once on an active team. ${ACCESS}`,
      responses: { 200: z.array(ClearedDomain), ...errors },
    },
    addDomain: {
      method: 'POST',
      path: '/api/v1/verification/domains',
      summary: 'Clear an e-mail domain (stored lower-case)',
      description: `409 \`conflict\` when it is cleared already. Audited \`verification.domain-added\`. ${ACCESS}`,
      body: z.object({ domain: EmailDomain }),
      responses: { 201: ClearedDomain, ...errors },
    },
    removeDomain: {
      method: 'DELETE',
      path: '/api/v1/verification/domains/:domain',
      summary: 'Remove a cleared e-mail domain',
      description:
        'Its users who were not approved one by one get `unauthorized-domain` on their next ' +
        `locating request. 404 \`not-found\` when it is not cleared. Audited \`verification.domain-removed\`. ${ACCESS}`,
      pathParams: z.object({ domain: EmailDomain }),
      body: c.noBody(),
      responses: { 204: c.noBody(), ...errors },
    },
  },
  { strictStatusCodes: true },
);
