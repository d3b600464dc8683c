import type { CaseTotals, LoginTotals, PlatformMetrics, UserLogins } from '@locus/contract';
import type { Database } from '@locus/db';
import { sql, type RawBuilder } from 'kysely';
import type { z } from 'zod';
import { daysOf, inPeriod, localDay, localMonth, monthsOf, periodStart } from './period';
import type { MetricsScope, PlatformScope } from './scope';

/*
 * What the audit trail says about sign-ins (modules/auth, mfa, passkeys, auth-sessions/start):
 * - every completed sign-in, with a password, a code or a passkey, ends in startAuthSession,
 *   which writes one 'sign-in' (actor and subject: the user's id). A passkey's second step also
 *   writes 'sign-in.passkey' just before it, so counting both would count that sign-in twice.
 * - every attempt refused for what was typed (a wrong password or an unknown address, a wrong
 *   code or passkey) goes through recordSignInFailure, which writes one 'sign-in.failed' (actor
 *   null, subject: the address typed, detail.userId: its account or null). A wrong second step
 *   writes 'sign-in.mfa-failed' beside it, and the failure that locks the account writes
 *   'sign-in.locked' after it: both describe an attempt already counted, not another one.
 * - an attempt refused because the account is already locked (at the password, code or passkey
 *   step) writes one 'sign-in.failed' too, through recordLockedSignIn (detail.refused:
 *   'account-locked'); it is not counted toward the lock, but it is a failed sign-in.
 * A failure for an address with no account names nobody: it counts on the platform only. An
 * attempt turned away before it is heard (429 for the address, a captcha to solve, a challenge
 * already over) writes nothing. Re-entering a password or code while signed in, to change the
 * password or a second factor, counts toward the lockout but is no sign-in: it is audited as
 * 'password-change.failed' or 'mfa-change.failed' (recordReauthFailure), not counted here.
 */
const succeeded = sql.lit('sign-in');
const failed = sql.lit('sign-in.failed');

/**
 * The user a sign-in row is about, as text. Written exactly as the index
 * audit_log_sign_in_user (migration 2026-11-28T17-03) is, literals and all, so that it serves
 * the per-member lookups.
 */
function signInUser(alias: string): RawBuilder<string | null> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<
    string | null
  >`(case when ${column('action')} = ${succeeded} then ${column('subject')} else ${column('detail')} ->> 'userId' end)`;
}

/** The rows of both kinds, also the partial index's predicate (literals, so it is implied). */
function isSignIn(alias: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(`${alias}.action`)} in (${succeeded}, ${failed})`;
}

const countOf = (action: RawBuilder<string>, alias = 'a') =>
  sql<number>`(count(*) filter (where ${sql.ref(`${alias}.action`)} = ${action}))::int`;

/** The team's members' sign-ins in the range, and per day in the team's zone. */
export async function loginTotals(
  db: Database,
  scope: MetricsScope,
): Promise<z.infer<typeof LoginTotals>> {
  const rows = await db
    .with('signins', (qb) =>
      qb
        .selectFrom('team_members as m')
        .innerJoin('audit_log as a', (join) =>
          join.on(sql<boolean>`${signInUser('a')} = ${sql.ref('m.user_id')}::text`),
        )
        .select(['m.user_id', 'a.action', localDay('a.at', scope).as('day')])
        .where('m.team_id', '=', scope.teamId)
        .where(isSignIn('a'))
        .where(inPeriod('a.at', scope)),
    )
    .selectFrom('signins as a')
    .select([
      'a.day',
      countOf(succeeded).as('succeeded'),
      countOf(failed).as('failed'),
      sql<number>`(count(distinct a.user_id) filter (where a.action = ${succeeded}))::int`.as(
        'users',
      ),
    ])
    // One pass: a row per day, and the range's own row (day null) for the distinct users.
    .groupBy(sql`grouping sets ((a.day), ())`)
    .execute();
  const total = rows.find((row) => row.day === null);
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return {
    succeeded: total?.succeeded ?? 0,
    failed: total?.failed ?? 0,
    users: total?.users ?? 0,
    byDay: daysOf(scope).map((day) => ({
      day,
      succeeded: byDay.get(day)?.succeeded ?? 0,
      failed: byDay.get(day)?.failed ?? 0,
    })),
  };
}

/** Every member of the team, by name (as the team's member list), with their sign-ins. */
export async function userLogins(
  db: Database,
  scope: MetricsScope,
): Promise<z.infer<typeof UserLogins>> {
  const rows = await db
    .selectFrom('team_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('audit_log as a')
          .select([
            countOf(succeeded).as('succeeded'),
            countOf(failed).as('failed'),
            sql<Date | null>`max(a.at) filter (where a.action = ${succeeded})`.as('last'),
          ])
          .where(sql<boolean>`${signInUser('a')} = ${sql.ref('m.user_id')}::text`)
          .where(isSignIn('a'))
          .where(inPeriod('a.at', scope))
          .as('l'),
      (join) => join.onTrue(),
    )
    .select(['u.id', 'u.first_name', 'u.last_name', 'l.succeeded', 'l.failed', 'l.last'])
    .where('m.team_id', '=', scope.teamId)
    .orderBy(sql`lower(u.last_name)`)
    .orderBy(sql`lower(u.first_name)`)
    .orderBy('u.id')
    .execute();
  return {
    users: rows.map((row) => ({
      userId: row.id,
      name: `${row.first_name} ${row.last_name}`.trim(),
      succeeded: row.succeeded,
      failed: row.failed,
      lastSignInAt: row.last === null ? null : new Date(row.last).toISOString(),
    })),
  };
}

type TeamMonth = CaseTotals & { teamId: string; month: string };

/**
 * Each team's sessions of the range per UTC month, counted as `caseTotals` counts a team's
 * (session-totals-repo.ts): one pass gives both the teams side by side and the growth.
 */
async function sessionsByTeamAndMonth(db: Database, scope: PlatformScope): Promise<TeamMonth[]> {
  const int = (value: RawBuilder<unknown>) => sql<number>`(${value})::int`;
  return db
    .with('scoped', (qb) =>
      qb
        .selectFrom('teams as t')
        // Per team, so that each team's range is one scan of its (team_id, created_at) index.
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom('tracking_sessions as s')
              .select([
                's.id',
                's.first_fix_at',
                's.chat_initiated_at',
                's.texts_sent',
                localMonth('s.created_at', scope).as('month'),
              ])
              .whereRef('s.team_id', '=', 't.id')
              .where(inPeriod('s.created_at', scope))
              .as('s'),
          (join) => join.onTrue(),
        )
        .select([
          't.id as team_id',
          's.id',
          's.month',
          's.first_fix_at',
          's.chat_initiated_at',
          's.texts_sent',
        ]),
    )
    .with('numbers', (qb) =>
      qb
        .selectFrom('scoped as x')
        .innerJoin('session_callers as c', 'c.session_id', 'x.id')
        // A caller is added after its session started: the range's start bounds the callers,
        // so a recent range reads recent callers from their (created_at) index, not them all.
        .where('c.created_at', '>=', periodStart(scope))
        .select(['x.team_id', 'x.month', int(sql`count(*)`).as('n')])
        .groupBy(['x.team_id', 'x.month']),
    )
    .with('transfers', (qb) =>
      qb
        .selectFrom('scoped as x')
        .innerJoin('case_transfers as t', 't.session_id', 'x.id')
        .where('t.status', '=', 'accepted')
        .select(['x.team_id', 'x.month', int(sql`count(distinct x.id)`).as('n')])
        .groupBy(['x.team_id', 'x.month']),
    )
    .with('sessions', (qb) =>
      qb
        .selectFrom('scoped as x')
        .select([
          'x.team_id',
          'x.month',
          int(sql`count(*)`).as('sessions'),
          int(sql`count(x.first_fix_at)`).as('located'),
          int(sql`count(x.chat_initiated_at)`).as('chats'),
          // As caseTotals: the count the session keeps outlives the purged texts.
          int(sql`coalesce(sum(x.texts_sent), 0)`).as('textsSent'),
        ])
        .groupBy(['x.team_id', 'x.month']),
    )
    .selectFrom('sessions as s')
    .leftJoin('numbers as n', (join) =>
      join.onRef('n.team_id', '=', 's.team_id').onRef('n.month', '=', 's.month'),
    )
    .leftJoin('transfers as r', (join) =>
      join.onRef('r.team_id', '=', 's.team_id').onRef('r.month', '=', 's.month'),
    )
    .select([
      's.team_id as teamId',
      's.month',
      's.sessions',
      's.located',
      's.chats',
      sql<number>`coalesce(n.n, 0)`.as('numbers'),
      's.textsSent',
      sql<number>`coalesce(r.n, 0)`.as('transfers'),
    ])
    .execute();
}

/** Every team side by side, growth per UTC month, and every sign-in per UTC day. */
export async function platformMetrics(
  db: Database,
  scope: PlatformScope,
): Promise<z.infer<typeof PlatformMetrics>> {
  const [teams, perTeamMonth, signIns, newUsers, logins] = await Promise.all([
    db
      .selectFrom('teams')
      .select(['id', 'team_name'])
      .orderBy(sql`lower(team_name)`)
      .orderBy('id')
      .execute(),
    sessionsByTeamAndMonth(db, scope),
    db
      .selectFrom('team_members as m')
      .innerJoin('audit_log as a', (join) =>
        join.on(sql<boolean>`${signInUser('a')} = ${sql.ref('m.user_id')}::text`),
      )
      .select(['m.team_id', sql<number>`count(*)::int`.as('n')])
      // The index's predicate covers both kinds; counting the successes among them.
      .where(isSignIn('a'))
      .where('a.action', '=', 'sign-in')
      .where(inPeriod('a.at', scope))
      .groupBy('m.team_id')
      .execute(),
    db
      .selectFrom('users')
      .select([localMonth('created_at', scope).as('month'), sql<number>`count(*)::int`.as('n')])
      .where(inPeriod('created_at', scope))
      .groupBy(sql.ref('month'))
      .execute(),
    // Every attempt, also those for addresses with no account: they belong to no team.
    db
      .selectFrom('audit_log as a')
      .select([
        localDay('a.at', scope).as('day'),
        countOf(succeeded).as('succeeded'),
        countOf(failed).as('failed'),
      ])
      .where(isSignIn('a'))
      .where(inPeriod('a.at', scope))
      .groupBy(sql.ref('day'))
      .execute(),
  ]);

  const zero: CaseTotals = {
    sessions: 0,
    numbers: 0,
    located: 0,
    textsSent: 0,
    transfers: 0,
    chats: 0,
  };
  const totals = new Map<string, CaseTotals>();
  const months = new Map<string, { sessions: number; activeTeams: number }>();
  for (const row of perTeamMonth) {
    const team = { ...(totals.get(row.teamId) ?? zero) };
    for (const key of Object.keys(zero) as (keyof CaseTotals)[]) team[key] += row[key];
    totals.set(row.teamId, team);
    const month = months.get(row.month) ?? { sessions: 0, activeTeams: 0 };
    months.set(row.month, {
      sessions: month.sessions + row.sessions,
      activeTeams: month.activeTeams + 1,
    });
  }
  const signInsOf = new Map(signIns.map((row) => [row.team_id, row.n]));
  const newUsersIn = new Map(newUsers.map((row) => [row.month, row.n]));
  const loginsOn = new Map(logins.map((row) => [row.day, row]));
  return {
    teams: teams.map((team) => ({
      teamId: team.id,
      teamName: team.team_name,
      ...(totals.get(team.id) ?? zero),
      signIns: signInsOf.get(team.id) ?? 0,
    })),
    growth: monthsOf(scope).map((month) => ({
      month,
      sessions: months.get(month)?.sessions ?? 0,
      activeTeams: months.get(month)?.activeTeams ?? 0,
      newUsers: newUsersIn.get(month) ?? 0,
    })),
    logins: daysOf(scope).map((day) => ({
      day,
      succeeded: loginsOn.get(day)?.succeeded ?? 0,
      failed: loginsOn.get(day)?.failed ?? 0,
    })),
  };
}
