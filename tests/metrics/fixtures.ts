import type { Database } from '@locus/db';

/**
 * Known history for the metrics tests: sessions, their callers, fixes, texts, chat and sign-ins
 * inserted as the API would have recorded them, with times chosen by the test. Every metrics
 * test asserts exact numbers over rows it inserted here.
 */
export interface CallerFixture {
  phoneNumber?: string;
  language?: 'en' | 'es' | 'fr' | 'zh';
  /** The link text: sent at, and its delivery status (`delivered`, `failed`, `sent`, …). */
  textSentAt?: Date;
  textStatus?: string;
  /** Texts sent to the caller after the first one (a resent link), each with its status. */
  moreTexts?: { sentAt: Date; status: string }[];
  linkOpenedAt?: Date;
  promptShownAt?: Date;
  /** When the page reported sharing; unset, the first fix's arrival (a position texted back). */
  sharedAt?: Date;
  deniedAt?: Date;
  /** Fixes as [receivedAt, uncertainty radius in metres]. */
  fixes?: [Date, number][];
}

export interface SessionFixture {
  teamId: string;
  /** Who started it (and is its dispatcher). */
  userId: string;
  createdAt: Date;
  endedAt?: Date;
  callers?: CallerFixture[];
  /** Set when the first fix came from the automatic lookup rather than the caller's link. */
  firstFixSource?: 'lookup' | 'link';
  /** The automatic lookup: `found`, `not-found`, `failed`, `timed-out` or `pending`. */
  lookup?: { requestedAt: Date; answeredAt?: Date; status: string; uncertaintyM?: number };
  chat?: {
    openedAt: Date;
    messages: {
      sender: 'caller' | 'dispatcher';
      translated?: boolean;
      /** The stored status when it is not just `translated` or `off` (e.g. `catalogue`). */
      translationStatus?: string;
    }[];
  };
  /** An accepted transfer to this user. */
  transferredTo?: string;
}

let phoneCounter = 0;
const nextPhone = () => `+1202555${String(1000 + (phoneCounter++ % 9000)).padStart(4, '0')}`;

export async function insertSession(db: Database, fixture: SessionFixture): Promise<string> {
  const callers = fixture.callers ?? [];
  const allFixes = callers.flatMap((caller) => caller.fixes ?? []);
  const linkFirstFix = allFixes.reduce<[Date, number] | undefined>(
    (first, fix) => (!first || fix[0] < first[0] ? fix : first),
    undefined,
  );
  const lookupFix =
    fixture.lookup?.status === 'found' && fixture.lookup.answeredAt
      ? ([fixture.lookup.answeredAt, fixture.lookup.uncertaintyM ?? 50] as [Date, number])
      : undefined;
  // The earlier of the lookup's answer and the caller's first fix, unless the test says which.
  const candidates = [
    ...(lookupFix ? [{ fix: lookupFix, source: 'lookup' as const }] : []),
    ...(linkFirstFix ? [{ fix: linkFirstFix, source: 'link' as const }] : []),
  ].filter((candidate) => !fixture.firstFixSource || candidate.source === fixture.firstFixSource);
  const first = candidates.sort((a, b) => a.fix[0].getTime() - b.fix[0].getTime())[0];
  const firstFix = first?.fix;
  const firstSource = first?.source ?? null;
  const radii = [...allFixes.map((fix) => fix[1]), ...(lookupFix ? [lookupFix[1]] : [])];
  const session = await db
    .insertInto('tracking_sessions')
    .values({
      team_id: fixture.teamId,
      created_by: fixture.userId,
      dispatcher_id: fixture.transferredTo ?? fixture.userId,
      created_at: fixture.createdAt,
      last_active_at: fixture.endedAt ?? fixture.createdAt,
      ended_at: fixture.endedAt ?? null,
      status: fixture.endedAt ? 'ended' : 'active',
      lifecycle: fixture.endedAt ? 'ended' : firstFix ? 'sharing' : 'waiting',
      chat_initiated_at: fixture.chat?.openedAt ?? null,
      first_fix_at: firstFix?.[0] ?? null,
      first_fix_source: firstSource,
      first_fix_uncertainty_m: firstFix?.[1] ?? null,
      best_uncertainty_m: radii.length > 0 ? Math.min(...radii) : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  let firstCallerId: string | undefined;
  for (const caller of callers.length > 0 ? callers : [{}]) {
    const phone = caller.phoneNumber ?? nextPhone();
    const row = await db
      .insertInto('session_callers')
      .values({
        session_id: session.id,
        phone_number: phone,
        language: caller.language ?? 'en',
        created_at: fixture.createdAt,
        link_opened_at: caller.linkOpenedAt ?? null,
        prompt_shown_at: caller.promptShownAt ?? null,
        // As the API records it: a position texted back (fixes but no sharing reported by a
        // page) sets shared_at when it arrives too.
        shared_at:
          caller.sharedAt ??
          (caller.fixes ?? []).reduce<Date | null>(
            (first, [receivedAt]) => (first === null || receivedAt < first ? receivedAt : first),
            null,
          ),
        denied_at: caller.deniedAt ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    firstCallerId ??= row.id;
    if (caller.textSentAt) {
      await db
        .insertInto('sms_messages')
        .values({
          session_id: session.id,
          caller_id: row.id,
          phone_number: phone,
          direction: 'outbound',
          body: 'Demo County 911 asks for your location: https://locus.example.org/l/x',
          status: caller.textStatus ?? 'delivered',
          language: caller.language ?? 'en',
          created_at: caller.textSentAt,
          sent_at: caller.textSentAt,
        })
        .execute();
    }
    for (const text of caller.moreTexts ?? []) {
      await db
        .insertInto('sms_messages')
        .values({
          session_id: session.id,
          caller_id: row.id,
          phone_number: phone,
          direction: 'outbound',
          body: 'Demo County 911 asks for your location: https://locus.example.org/l/x',
          status: text.status,
          language: caller.language ?? 'en',
          created_at: text.sentAt,
          sent_at: text.sentAt,
        })
        .execute();
    }
    let seq = 1;
    for (const [receivedAt, radius] of caller.fixes ?? []) {
      await db
        .insertInto('location_fixes')
        .values({
          session_id: session.id,
          caller_id: row.id,
          seq: seq++,
          latitude: 38.8895,
          longitude: -77.0353,
          uncertainty_radius_m: radius,
          captured_at: receivedAt,
          received_at: receivedAt,
          source: 'TEXT_MESSAGE',
        })
        .execute();
    }
  }
  if (fixture.lookup && firstCallerId) {
    await db
      .insertInto('location_lookups')
      .values({
        session_id: session.id,
        caller_id: firstCallerId,
        created_at: fixture.lookup.requestedAt,
        answered_at: fixture.lookup.answeredAt ?? null,
        status: fixture.lookup.status,
        uncertainty_radius_m: fixture.lookup.uncertaintyM ?? null,
        latitude: fixture.lookup.status === 'found' ? 38.8895 : null,
        longitude: fixture.lookup.status === 'found' ? -77.0353 : null,
      })
      .execute();
  }
  if (fixture.chat && firstCallerId) {
    let seq = 1;
    for (const message of fixture.chat.messages) {
      await db
        .insertInto('chat_messages')
        .values({
          session_id: session.id,
          caller_id: firstCallerId,
          seq: seq++,
          sender: message.sender,
          sender_user_id: message.sender === 'dispatcher' ? fixture.userId : null,
          body: 'Help is on the way.',
          language: 'en',
          translation_status:
            message.translationStatus ?? (message.translated ? 'translated' : 'off'),
          translation_language: message.translated ? 'es' : null,
          translation_text: message.translated ? 'La ayuda está en camino.' : null,
          sent_at: fixture.chat.openedAt,
        })
        .execute();
    }
  }
  if (fixture.transferredTo) {
    await db
      .insertInto('case_transfers')
      .values({
        session_id: session.id,
        team_id: fixture.teamId,
        from_user_id: fixture.userId,
        to_user_id: fixture.transferredTo,
        status: 'accepted',
        offered_at: fixture.createdAt,
        decided_at: fixture.createdAt,
        expires_at: new Date(fixture.createdAt.getTime() + 60_000),
        machine_snapshot: JSON.stringify({}),
      })
      .execute();
  }
  return session.id;
}

/**
 * A sign-in (or a failed one) as the audit trail records it. A failed one names its account in
 * `detail.userId`, as recordSignInFailure does, and has the address typed (`email`) as its
 * subject when given; `userId: null` is a failure for an address with no account.
 */
export async function insertSignIn(
  db: Database,
  fixture: {
    userId: string | null;
    teamId: string | null;
    at: Date;
    failed?: boolean;
    email?: string;
  },
): Promise<void> {
  if (fixture.userId === null && !fixture.failed)
    throw new Error('a successful sign-in has a user');
  await db
    .insertInto('audit_log')
    .values({
      action: fixture.failed ? 'sign-in.failed' : 'sign-in',
      actor_user_id: fixture.failed ? null : fixture.userId,
      subject:
        (fixture.failed ? fixture.email : undefined) ?? fixture.userId ?? 'nobody@unknown.test',
      team_id: fixture.teamId,
      at: fixture.at,
      detail: JSON.stringify(fixture.failed ? { userId: fixture.userId } : {}),
    })
    .execute();
}

export async function idsOf(db: Database) {
  const teams = await db.selectFrom('teams').select(['id', 'team_name']).execute();
  const users = await db.selectFrom('users').select(['id', 'email']).execute();
  const team = (name: string) => {
    const found = teams.find((row) => row.team_name === name);
    if (!found) throw new Error(`no team ${name}`);
    return found.id;
  };
  const user = (email: string) => {
    const found = users.find((row) => row.email === email);
    if (!found) throw new Error(`no user ${email}`);
    return found.id;
  };
  return { team, user };
}
