import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { PageQuery, pageOf, TeamRole } from './admin-common';
import { ErrorBody } from './errors';

const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

/** A team a listed user belongs to, with their role on it. */
export const AdminUserTeam = z.object({
  teamId: z.string().uuid(),
  teamName: z.string(),
  role: TeamRole,
});
export type AdminUserTeam = z.infer<typeof AdminUserTeam>;

/**
 * One row of the admin users table. `teams` holds only the teams the caller manages (a team
 * admin never learns which other teams a user belongs to); platform admins see every team.
 */
export const AdminUser = z.object({
  id: z.string().uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  /** The agency name the user gave at registration (an unlisted agency), or null. */
  companyName: z.string().nullable(),
  /** A platform admin: the admin flag and a member of the platform owner's team. */
  isPlatformAdmin: z.boolean(),
  emailConfirmed: z.boolean(),
  createdAt: z.string().datetime(),
  /** The start of the user's newest sign-in, or null if they never signed in. */
  lastSignInAt: z.string().datetime().nullable(),
  teams: z.array(AdminUserTeam),
});
export type AdminUser = z.infer<typeof AdminUser>;

/** A user's detail drawer: the row plus what only matters for one user. */
export const AdminUserDetail = AdminUser.extend({
  phoneNumber: z.string().nullable(),
  /** Locked out of sign-in after too many failed attempts (lifts by itself, or by Unlock). */
  locked: z.boolean(),
});
export type AdminUserDetail = z.infer<typeof AdminUserDetail>;

export const userSortKeys = ['name', 'email', 'createdAt', 'lastSignInAt'] as const;
export const UserSort = z.enum(userSortKeys);
export type UserSort = z.infer<typeof UserSort>;

/** Search matches first name, last name, full name and e-mail, case-insensitive. */
const Search = z.string().trim().max(200);

/**
 * The users list's query: paging, an optional search, a sort (by name unless told: last name,
 * then first name) and, optionally, one team. Ties are broken by id, so the order is stable.
 */
export const UsersListQuery = PageQuery.extend({
  search: Search.optional(),
  sort: UserSort.default('name'),
  direction: z.enum(['asc', 'desc']).default('asc'),
  teamId: z.string().uuid().optional(),
});
export type UsersListQuery = z.infer<typeof UsersListQuery>;

export const UsersPage = pageOf(AdminUser);
export type UsersPage = z.infer<typeof UsersPage>;

const whoSees =
  'Platform admins see every user; team admins see only the users of the teams they administer ' +
  '(another team answers 404); dispatchers get 403.';

const TeamPageParams = z.object({
  teamId: z.string().uuid(),
  page: z.coerce.number().int().min(1).max(100_000),
});
const PageSizeQuery = PageQuery.pick({ pageSize: true });

export const usersAdminContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/api/v1/users/',
      summary: 'Admins: the users they manage, paginated, searchable and sortable',
      description: `${whoSees} Sort by name (last, then first), email, createdAt or lastSignInAt; ties by id. \`teamId\` limits the list to one team.`,
      query: UsersListQuery,
      responses: { 200: UsersPage, ...errors },
    },
    search: {
      method: 'GET',
      path: '/api/v1/users/search',
      summary:
        'Admins: users whose first name, last name, full name or e-mail contains `search` (case-insensitive)',
      description: `${whoSees} Ordered by name, then id.`,
      query: PageQuery.extend({ search: Search.min(1, 'Required') }),
      responses: { 200: UsersPage, ...errors },
    },
    clientUsers: {
      method: 'GET',
      path: '/api/v1/users/find-client-users/:teamId/:page',
      summary:
        'Admins: one team\'s users (its "client users"); `teamId` is the team, `page` the 1-based page',
      description: `${whoSees} Ordered by name, then id; \`pageSize\` is optional (default 25).`,
      pathParams: TeamPageParams,
      query: PageSizeQuery,
      responses: { 200: UsersPage, ...errors },
    },
    newClientUsers: {
      method: 'GET',
      path: '/api/v1/users/find-new-client-users/:teamId/:page',
      summary:
        "Admins: one team's users who registered in the last 30 days, newest first; `teamId` is the team, `page` the 1-based page",
      description: `${whoSees} Ordered by registration time (newest first), then id.`,
      pathParams: TeamPageParams,
      query: PageSizeQuery,
      responses: { 200: UsersPage, ...errors },
    },
    unlistedUsers: {
      method: 'GET',
      path: '/api/v1/users/find-unlisted-users',
      summary:
        'Platform admins: users who registered with an agency that is not listed and have no team yet',
      description:
        'Newest first, then id; an applicant the platform owner rejected is left out. Team admins get 403: these users belong to no team yet, so only the platform owner vets them.',
      query: PageQuery,
      responses: { 200: UsersPage, ...errors },
    },
    detail: {
      method: 'GET',
      path: '/api/v1/users/:id',
      summary:
        "Admins: one user's detail: teams and roles, e-mail confirmed, last sign-in, locked out",
      description: whoSees,
      pathParams: z.object({ id: z.string().uuid() }),
      responses: { 200: AdminUserDetail, ...errors },
    },
    unlock: {
      method: 'POST',
      path: '/api/v1/users/:id/unlock',
      summary: "Admins: lift a user's sign-in lock at once (and forget their failed attempts)",
      description: `${whoSees} Audited as \`sign-in.unlocked\`. Answers the user's detail.`,
      pathParams: z.object({ id: z.string().uuid() }),
      body: c.noBody(),
      responses: { 200: AdminUserDetail, ...errors },
    },
  },
  { strictStatusCodes: true },
);
