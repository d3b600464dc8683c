import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ErrorBody } from './errors';

const c = initContract();

/** A signed-in session of the user, as the profile lists them. */
export const AuthSessionSummary = z.object({
  id: z.string().uuid(),
  /** ISO 8601, UTC. */
  createdAt: z.string().datetime(),
  lastActiveAt: z.string().datetime(),
  expiresAt: z.string().datetime(),
  userAgent: z.string().nullable(),
  ipAddress: z.string().nullable(),
  /** The session making this request. */
  current: z.boolean(),
});
export type AuthSessionSummary = z.infer<typeof AuthSessionSummary>;

/**
 * The idle timeout that applies to the signed-in user (CJIS 5.5.5): the strictest of their teams'
 * settings, else the deployment's default. The console warns `idleWarningSeconds` before it
 * signs out, and sends an activity ping at most every `activityPingSeconds` while the user works.
 */
export const SessionPolicy = z.object({
  idleTimeoutSeconds: z.number().int().positive(),
  idleWarningSeconds: z.number().int().positive(),
  activityPingSeconds: z.number().int().positive(),
});
export type SessionPolicy = z.infer<typeof SessionPolicy>;

/** What a team admin sets for the team's members. */
export const TeamSecurity = z.object({
  requireMfa: z.boolean(),
  /** Minutes without activity before the console signs out; null: the deployment's default. */
  idleTimeoutMinutes: z.number().int().min(1).max(720).nullable(),
});
export type TeamSecurity = z.infer<typeof TeamSecurity>;

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

/** The user's own sessions (CJIS 5.5.5, ASVS 3.3) and a team's security policy. */
export const authSessionsContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/api/v1/auth/sessions',
      summary: "The signed-in user's active sessions, newest activity first",
      description:
        'Every session that is not signed out or expired: its browser (user agent), address, when it started, was last active and expires; `current` marks this one.',
      responses: { 200: z.array(AuthSessionSummary), ...errors },
    },
    signOutOthers: {
      method: 'POST',
      path: '/api/v1/auth/sessions/sign-out-others',
      summary: 'Revoke every other session of the signed-in user',
      description:
        'Signs out every session but this one, and closes their realtime sockets on every instance.',
      body: c.noBody(),
      responses: { 200: z.object({ revoked: z.number().int() }), ...errors },
    },
    policy: {
      method: 'GET',
      path: '/api/v1/auth/sessions/policy',
      summary: 'The idle timeout that applies to the signed-in user',
      description:
        "The shortest idle timeout of the user's teams (or the default), with when the console warns before it signs out and how often it reports activity.",
      responses: { 200: SessionPolicy, ...errors },
    },
    activity: {
      method: 'POST',
      path: '/api/v1/auth/sessions/activity',
      summary: 'The console saw the user working: the session is not idle',
      description:
        'A session with no activity (this ping, or any request that is not a read) for its idle timeout answers 401 `session-expired`.',
      body: c.noBody(),
      responses: { 204: c.noBody(), ...errors },
    },
    teamSecurity: {
      method: 'GET',
      path: '/api/v1/teams/:id/security',
      summary: "Team admins: the team's security policy",
      description:
        "Whether the team requires two-step sign-in, and its idle timeout. Only the team's admins (403 `forbidden` otherwise).",
      pathParams: z.object({ id: z.string().uuid() }),
      responses: { 200: TeamSecurity, ...errors },
    },
    setTeamSecurity: {
      method: 'PATCH',
      path: '/api/v1/teams/:id/security',
      summary: 'Team admins: require multi-factor authentication, set the idle timeout',
      description:
        "Changes take effect on the members' next request; the change is written to the audit log. Only the team's admins.",
      pathParams: z.object({ id: z.string().uuid() }),
      body: TeamSecurity.partial(),
      responses: { 200: TeamSecurity, ...errors },
    },
  },
  { strictStatusCodes: true },
);
