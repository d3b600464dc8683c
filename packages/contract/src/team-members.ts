import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { PageQuery, pageOf, TeamRole } from './admin-common';
import { ErrorBody } from './errors';

const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

/** A member of a team, with their role on it. */
export const TeamMember = z.object({
  /** The user's id. */
  id: z.string().uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  emailConfirmed: z.boolean(),
  role: TeamRole,
  /** When they joined the team. */
  addedAt: z.string().datetime(),
});
export type TeamMember = z.infer<typeof TeamMember>;

export const TeamMembersPage = pageOf(TeamMember);
export type TeamMembersPage = z.infer<typeof TeamMembersPage>;

export const TeamRoleBody = z.object({ role: TeamRole }).strict();
export type TeamRoleBody = z.infer<typeof TeamRoleBody>;

const params = z.object({ id: z.string().uuid(), userId: z.string().uuid() });

const whoMay =
  "Platform admins on any team, team admins on their own; another team (or a user who isn't a member) answers 404, a dispatcher 403.";
const lastAdmin =
  'Removing or demoting the last team admin is refused with 409 `conflict` and changes nothing.';
const endsSessions =
  "Removing a user, or demoting a team admin, ends all of that user's sessions and closes their sockets at once.";

export const teamMembersContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/api/v1/teams/:id/users',
      summary: "A team's members with their role, paginated, ordered by name then id",
      description: whoMay,
      pathParams: z.object({ id: z.string().uuid() }),
      query: PageQuery,
      responses: { 200: TeamMembersPage, ...errors },
    },
    add: {
      method: 'POST',
      path: '/api/v1/teams/:id/users/:userId',
      summary:
        'Add an existing user to a team with a role (`admin`: Team admin, `member`: Dispatcher)',
      description: `${whoMay} A team admin may add only users they already manage (others answer 404); new people are invited with POST /api/v1/auth/group-register instead. Already a member: 409 \`conflict\`. Audited as \`user.added-to-team\`.`,
      pathParams: params,
      body: TeamRoleBody,
      responses: { 201: TeamMember, ...errors, 409: ErrorBody },
    },
    get: {
      method: 'GET',
      path: '/api/v1/teams/:id/users/:userId',
      summary: 'One member of a team and their role',
      description: whoMay,
      pathParams: params,
      responses: { 200: TeamMember, ...errors },
    },
    changeRole: {
      method: 'PATCH',
      path: '/api/v1/teams/:id/users/:userId',
      summary: "Change a member's role on a team",
      description: `${whoMay} ${lastAdmin} ${endsSessions} Audited as \`user.role-changed\`.`,
      pathParams: params,
      body: TeamRoleBody,
      responses: { 200: TeamMember, ...errors, 409: ErrorBody },
    },
    remove: {
      method: 'DELETE',
      path: '/api/v1/teams/:id/users/:userId',
      summary: 'Remove a user from a team (their account stays)',
      description: `${whoMay} ${lastAdmin} ${endsSessions} Audited as \`user.removed-from-team\`.`,
      pathParams: params,
      body: c.noBody(),
      responses: { 204: c.noBody(), ...errors, 409: ErrorBody },
    },
  },
  { strictStatusCodes: true },
);
