import {
  isCoastGuardEmail,
  sessionLifetimes,
  type AuthToken,
  type CompleteRegistrationBody,
  type CompleteUscgRegistrationBody,
  type CurrentUser,
  type DemoRequestBody,
  type GroupRegisterBody,
  type JoinUnlistedBody,
  type RegisterBody,
  type SignInAnswer,
  type SignInBody,
} from '@locus/contract';
import type { Database } from '@locus/db';
import { SignInFlow, stepRegistration } from '@locus/machines/authentication';
import { randomBytes } from 'node:crypto';
import { publicUrl } from '../../config';
import { ApiError } from '../../http/errors';
import type { AppDeps } from '../../platform/deps';
import { recordAudit } from '../audit/repo';
import { startAuthSession } from '../auth-sessions/start';
import { insertDemoRequest } from '../demo-requests/repo';
import { signInFlowPolicy } from '../mfa/challenges';
import { issueMfaChallenge, secondFactorMethods } from '../mfa/service';
import type { Mailer } from '../email/service';
import {
  alreadyRegisteredEmail,
  confirmationEmail,
  demoRequestNotification,
  groupInvitationEmail,
  resetPasswordEmail,
  teamInvitationEmail,
  type RenderedEmail,
} from '../email/templates';
import { revokeUserRealtimeAccess } from '../sessions/revocation';
import { hashToken, newToken } from '../sessions/tokens';
import { confirmAddress, findUser, isUniqueViolation, psapExists, updateUser } from '../users/repo';
import { membersAmong } from '../team-invitations/repo';
import { acceptInvitation, createInvitation } from '../team-invitations/service';
import { loadCurrentUser } from '../users/service';
import { uscgApprovalOf } from '../users/view';
import { BackgroundTasks } from './background';
import type { Principal } from './guard';
import type { SignInLockout } from './lockout';
import { assertAcceptablePassword } from './password-policy';
import { checkPassword, hashPassword } from './passwords';
import {
  accountLocked,
  admitSignIn,
  recordLockedSignIn,
  recordSignInFailure,
} from './sign-in-guard';
import {
  addTeamMembers,
  consumeCode,
  findAccountByEmail,
  findConfirmedByEmails,
  findTeam,
  insertAuthSession,
  insertCode,
  insertUser,
  retireCodes,
  revokeAuthSession,
  revokeUserSessions,
  setPassword,
  type CodePurpose,
} from './repo';

const invalidCredentials = () =>
  new ApiError(401, 'invalid-credentials', 'Invalid email or password');
const invalidCode = () => new ApiError(400, 'invalid-code', 'This link is invalid or has expired.');
const captchaFailed = () =>
  new ApiError(400, 'captcha-failed', 'The captcha was not solved. Please try again.');

/** The answers that must not reveal whether an address has an account. */
export const neutralMessages = {
  resend: 'If an account with this address is waiting for confirmation, we have sent a new link.',
  forgot: 'If an account exists for this address, we have sent a link to reset its password.',
} as const;

/** Sign-in, registration, e-mail confirmation and password reset. */
export class AuthService {
  private readonly db: Database;
  private readonly base: string;

  /** Work done after answering (see forgotPassword); drained when the API shuts down. */
  readonly background: BackgroundTasks;

  constructor(
    private readonly deps: AppDeps,
    private readonly mailer: Mailer,
    private readonly lockout: SignInLockout,
  ) {
    this.db = deps.db;
    this.base = publicUrl(deps.config);
    this.background = new BackgroundTasks(deps.log);
  }

  private confirmLink(code: string): string {
    return `${this.base}/register/email-confirmation?verification-code=${code}`;
  }

  private resetLink(code: string): string {
    return `${this.base}/auth/forgot-password/reset?reset-code=${code}`;
  }

  private async startSession(
    db: Database,
    userId: string,
    staySignedIn: boolean,
  ): Promise<AuthToken> {
    const { token, hash } = newToken();
    const expiresAt = await insertAuthSession(db, {
      hash,
      userId,
      staySignedIn,
      ttlSeconds: staySignedIn
        ? sessionLifetimes.staySignedInSeconds
        : sessionLifetimes.shortSeconds,
    });
    return { token, expiresAt: expiresAt.toISOString() };
  }

  private async issueCode(
    db: Database,
    userId: string,
    purpose: CodePurpose,
    ttlSeconds: number,
  ): Promise<string> {
    const { token, hash } = newToken();
    await insertCode(db, { hash, userId, purpose, ttlSeconds });
    return token;
  }

  /**
   * The password step, run as the sign-in flow machine says (`SignInFlow`): each fact learned is
   * an event, and what is done next (count a failure, look for a second factor) and the answer
   * (401 refused or locked, a challenge, a session) follow from the state it reaches. A challenge
   * stores the flow's snapshot; the code step (MfaService.signIn) resumes it.
   */
  async signIn(body: SignInBody, remoteIp: string, userAgent?: string): Promise<SignInAnswer> {
    const attempt = { email: body.email, ip: remoteIp, captchaToken: body.captchaToken };
    const flow = SignInFlow.start(signInFlowPolicy);
    flow.send({ type: 'PASSWORD_SUBMITTED' });
    // A wait (429) or a captcha to solve refuses the attempt before the flow hears of it.
    const admitted = await admitSignIn(
      { lockout: this.lockout, captcha: this.deps.captcha },
      attempt,
    );
    const account = await findAccountByEmail(this.db, body.email);
    if (admitted === 'locked') {
      flow.send({ type: 'ACCOUNT_LOCKED' });
      // Refused unheard, yet a failed sign-in all the same: audited (with the account, when the
      // address has one) but not counted, so the lock lifts when it would have.
      await recordLockedSignIn(this.db, { ...attempt, userId: account?.id ?? null });
    } else {
      const matches = await checkPassword(account?.password_hash, body.password);
      flow.send({ type: 'PASSWORD_CHECKED', accountExists: account !== undefined, matches });
    }
    if (flow.state() === 'countingFailure') {
      const outcome = await recordSignInFailure(
        { lockout: this.lockout, db: this.db },
        { ...attempt, userId: account?.id ?? null },
      );
      flow.send({ type: 'LOCK_DECIDED', locked: outcome === 'locked' });
    }
    if (flow.state() === 'passwordAccepted' && account) {
      const methods = await secondFactorMethods(this.deps, account.id);
      flow.send(
        methods.length > 0
          ? { type: 'CHALLENGE_ISSUED', methods, at: Date.now() }
          : { type: 'NO_SECOND_FACTOR' },
      );
    }
    const state = flow.state();
    if (state === 'locked') throw accountLocked();
    if (state === 'refused') throw invalidCredentials();
    // Only an account whose password was right gets this far.
    if (!account) throw new Error(`the sign-in flow stopped at ${state}`);
    switch (state) {
      case 'secondFactor':
        // The failures counted so far stay until the code is right too, so guessing codes
        // cannot be spread over fresh password sign-ins.
        return issueMfaChallenge(
          this.deps,
          { userId: account.id, email: account.email, staySignedIn: body.staySignedIn },
          flow.context.methods,
          flow,
        );
      case 'signedIn':
        await this.lockout.clear(body.email);
        return startAuthSession(this.db, {
          userId: account.id,
          staySignedIn: body.staySignedIn,
          client: { ip: remoteIp, userAgent },
        });
      default:
        throw new Error(`the sign-in flow stopped at ${state}`);
    }
  }

  /**
   * Ends the session, with the socket tokens it was issued and the dispatcher sockets opened with
   * them; the user's other signed-in consoles keep theirs.
   */
  async signOut(principal: Principal): Promise<void> {
    await revokeAuthSession(this.db, principal.tokenHash);
    const socketTokensRevoked = await revokeUserRealtimeAccess(
      this.deps,
      principal.userId,
      { authSessionId: principal.sessionId },
      'signed-out',
    );
    await recordAudit(this.db, {
      actorUserId: principal.userId,
      action: 'sign-out',
      subject: principal.userId,
      detail: { socketTokensRevoked },
    });
  }

  /**
   * Always the same work and the same answer: hash, create an unconfirmed account and a
   * session, write one e-mail. A new address gets a confirmation link; an address that already
   * has an account gets a notice instead, and the new account can never be confirmed.
   */
  async register(body: RegisterBody, remoteIp: string): Promise<AuthToken> {
    await this.checkCaptcha(body.captchaToken, remoteIp);
    await assertAcceptablePassword(body.password);
    const passwordHash = await hashPassword(body.password);
    const { session, emailId } = await this.db.transaction().execute(async (trx) => {
      const existing = await findAccountByEmail(trx, body.email);
      const owner = existing?.email_confirmed_at ? existing : undefined;
      const userId = await insertUser(trx, { ...body, passwordHash });
      const session = await this.startSession(trx, userId, true);
      let email: RenderedEmail;
      if (owner) {
        email = alreadyRegisteredEmail({
          to: body.email,
          firstName: owner.first_name,
          signInLink: `${this.base}/auth/sign-in`,
          resetLink: `${this.base}/auth/forgot-password`,
        });
      } else {
        const ttl = this.deps.config.EMAIL_CONFIRMATION_TTL_SECONDS;
        const code = await this.issueCode(trx, userId, 'confirm-email', ttl);
        email = confirmationEmail({
          to: body.email,
          firstName: body.firstName,
          link: this.confirmLink(code),
          validForSeconds: ttl,
        });
      }
      return { session, emailId: await this.mailer.write(trx, email) };
    });
    await this.mailer.enqueue([emailId]);
    return session;
  }

  async resendConfirmation(address: string): Promise<{ message: string }> {
    const account = await findAccountByEmail(this.db, address);
    // The account found is the confirmed one when there is one: then there is nothing to confirm.
    if (account && account.email_confirmed_at === null) {
      const ttl = this.deps.config.EMAIL_CONFIRMATION_TTL_SECONDS;
      const emailId = await this.db.transaction().execute(async (trx) => {
        const code = await this.issueCode(trx, account.id, 'confirm-email', ttl);
        return this.mailer.write(
          trx,
          confirmationEmail({
            to: account.email,
            firstName: account.first_name,
            link: this.confirmLink(code),
            validForSeconds: ttl,
          }),
        );
      });
      await this.mailer.enqueue([emailId]);
    }
    return { message: neutralMessages.resend };
  }

  async confirmEmail(code: string): Promise<{ message: string }> {
    const confirmed = await this.withCode(code, 'confirm-email', async (trx, userId) => {
      const outcome = await confirmAddress(trx, userId);
      return outcome === 'confirmed' || outcome === 'already-confirmed';
    });
    if (!confirmed) throw invalidCode();
    return { message: 'Your e-mail address is confirmed.' };
  }

  /**
   * Answers at once and alike for every address: looking the address up, issuing the code and
   * writing the e-mail happen after the answer, so its timing cannot tell whether the address
   * has an account.
   */
  async forgotPassword(address: string): Promise<{ message: string }> {
    this.background.run('reset link', () => this.sendResetLink(address));
    return { message: neutralMessages.forgot };
  }

  private async sendResetLink(address: string): Promise<void> {
    const account = await findAccountByEmail(this.db, address);
    if (account) {
      const ttl = this.deps.config.PASSWORD_RESET_TTL_SECONDS;
      const emailId = await this.db.transaction().execute(async (trx) => {
        const code = await this.issueCode(trx, account.id, 'reset-password', ttl);
        return this.mailer.write(
          trx,
          resetPasswordEmail({
            to: account.email,
            firstName: account.first_name,
            link: this.resetLink(code),
            validForSeconds: ttl,
          }),
        );
      });
      await this.mailer.enqueue([emailId]);
    }
  }

  /**
   * Sets the password with a reset code. Following the link proves the address, so it also
   * confirms it (this is how group-registered users confirm). Every session of the user ends.
   */
  async updatePassword(code: string, password: string): Promise<{ message: string }> {
    // Before the code is used, so that choosing another password can reuse the same link.
    await assertAcceptablePassword(password);
    const passwordHash = await hashPassword(password);
    const changed = await this.withCode(code, 'reset-password', async (trx, userId) => {
      const outcome = await confirmAddress(trx, userId);
      if (outcome === 'taken' || outcome === 'missing') return undefined;
      await setPassword(trx, userId, passwordHash);
      await retireCodes(trx, userId, 'reset-password');
      const sessionsEnded = await revokeUserSessions(trx, userId);
      await recordAudit(trx, {
        actorUserId: userId,
        action: 'password.reset',
        subject: userId,
        detail: { sessionsEnded },
      });
      const email = (await findUser(trx, userId))?.email;
      return email === undefined ? undefined : { email, userId };
    });
    if (!changed) throw invalidCode();
    // After the commit: a socket opening meanwhile re-checks its token and must see it revoked.
    await revokeUserRealtimeAccess(
      this.deps,
      changed.userId,
      { everySession: true },
      'password-changed',
    );
    await this.lockout.clear(changed.email);
    return { message: 'Your password has been changed. Sign in with your new password.' };
  }

  /** Uses the code and acts in one transaction; a code that fails the action stays used. */
  private async withCode<T>(
    code: string,
    purpose: CodePurpose,
    action: (trx: Database, userId: string) => Promise<T>,
  ): Promise<T | undefined> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const userId = await consumeCode(trx, hashToken(code), purpose);
        return userId === undefined ? undefined : action(trx, userId);
      });
    } catch (error) {
      // Another account confirmed the same address at the same moment.
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  async completeRegistration(
    principal: Principal,
    body: CompleteRegistrationBody,
  ): Promise<CurrentUser> {
    if (!(await psapExists(this.db, body.psapPrimaryKey))) {
      throw new ApiError(400, 'validation-failed', 'Choose your agency from the list.', [
        { path: 'psapPrimaryKey', message: 'Unknown agency' },
      ]);
    }
    await updateUser(this.db, principal.userId, {
      psap_id: body.psapPrimaryKey,
      ...(body.phoneNumber !== undefined ? { phone_number: body.phoneNumber || null } : {}),
      ...(body.companyName ? { company_name: body.companyName } : {}),
      registration_completed_at: new Date(),
    });
    return loadCurrentUser(this.db, principal.userId);
  }

  async joinUnlisted(principal: Principal, body: JoinUnlistedBody): Promise<CurrentUser> {
    await updateUser(this.db, principal.userId, {
      psap_id: null,
      company_name: body.companyName,
      ...(body.phoneNumber !== undefined ? { phone_number: body.phoneNumber || null } : {}),
      registration_completed_at: new Date(),
    });
    return loadCurrentUser(this.db, principal.userId);
  }

  /**
   * The coast-guard registration: the unit's name, then a coast-guard team admin decides. The
   * registration machine (`packages/machines/src/authentication/registration.ts`), rebuilt from
   * the user's row, decides whether the step is theirs to take and where it leads: asking again
   * after a rejection puts the user back in the queue; an approval is kept.
   */
  async completeRegistrationUscg(
    principal: Principal,
    body: CompleteUscgRegistrationBody,
  ): Promise<CurrentUser> {
    const user = await findUser(this.db, principal.userId);
    const step = stepRegistration(
      {
        coastGuard: isCoastGuardEmail(principal.email, this.coastGuard()),
        registrationCompleted: user?.registration_completed_at != null,
        uscgApproval: uscgApprovalOf(user?.uscg_status),
      },
      { type: 'UNIT_SUBMITTED' },
    );
    if (!step.taken) {
      throw new ApiError(403, 'forbidden', 'This registration is for coast-guard addresses only.');
    }
    await updateUser(this.db, principal.userId, {
      uscg_unit_name: body.unitName,
      registration_completed_at: new Date(),
      ...(step.state === 'awaitingApproval'
        ? { uscg_status: 'pending' as const, uscg_requested_at: new Date() }
        : {}),
    });
    return loadCurrentUser(this.db, principal.userId);
  }

  private coastGuard() {
    return {
      emailDomain: this.deps.config.COAST_GUARD_EMAIL_DOMAIN,
      aliasPattern: this.deps.config.COAST_GUARD_EMAIL_PATTERN ?? null,
    };
  }

  /**
   * A team admin (or a platform admin) puts people on a team. Each address gets one e-mail and
   * the answer only counts addresses, so it never tells whether one had an account (and takes
   * as long: every person costs a hash). A new address gets an unconfirmed account with a
   * password nobody knows and a link to choose one (which also confirms the address); an
   * existing account gets an invitation its owner accepts: nobody is added without saying yes.
   */
  async groupRegister(
    principal: Principal,
    body: GroupRegisterBody,
    ip: string | null = null,
  ): Promise<{ invited: number }> {
    if (!principal.isPlatformAdmin && !principal.adminTeamIds.includes(body.teamId)) {
      // An admin of another team learns nothing about this one (404); a dispatcher is refused.
      if (principal.adminTeamIds.length > 0) throw new ApiError(404, 'not-found', 'No such team.');
      throw new ApiError(403, 'forbidden', 'Only admins of this team can add users to it.');
    }
    const team = await findTeam(this.db, body.teamId);
    if (!team) throw new ApiError(404, 'not-found', 'No such team.');
    const people = [...new Map(body.users.map((user) => [user.email, user])).values()];
    const existing = new Map(
      (
        await findConfirmedByEmails(
          this.db,
          people.map((person) => person.email),
        )
      ).map((row) => [row.email, row.id]),
    );
    const alreadyMembers = await membersAmong(this.db, team.id, [...existing.values()]);
    const hashes = await Promise.all(
      people.map(() => hashPassword(randomBytes(32).toString('base64url'))),
    );
    const ttl = this.deps.config.EMAIL_CONFIRMATION_TTL_SECONDS;
    const invitation = { teamName: team.team_name, invitedBy: principal.fullName };
    const emailIds = await this.db.transaction().execute(async (trx) => {
      const ids: string[] = [];
      const newMembers: { userId: string; role: 'admin' | 'member' }[] = [];
      for (const [index, person] of people.entries()) {
        const existingId = existing.get(person.email);
        // Already on the team: nothing to ask (the answer does not say so either).
        if (existingId !== undefined && alreadyMembers.has(existingId)) continue;
        let email: RenderedEmail;
        if (existingId !== undefined) {
          const code = await createInvitation(trx, {
            teamId: team.id,
            userId: existingId,
            role: person.role,
            invitedBy: principal.userId,
            ttlSeconds: ttl,
          });
          email = teamInvitationEmail({
            ...invitation,
            to: person.email,
            firstName: person.firstName,
            link: `${this.base}/auth/accept-invitation?invitation-code=${code}`,
            validForSeconds: ttl,
          });
        } else {
          const userId = await insertUser(trx, {
            ...person,
            passwordHash: hashes[index]!,
            registeredByTeamAdmin: true,
          });
          newMembers.push({ userId, role: person.role });
          const code = await this.issueCode(trx, userId, 'reset-password', ttl);
          email = groupInvitationEmail({
            ...invitation,
            to: person.email,
            firstName: person.firstName,
            link: this.resetLink(code),
            validForSeconds: ttl,
          });
        }
        // The same row whether or not the address had an account: the team's trail must not
        // tell its admins what group-register's answer keeps from them. The subject is the
        // address they typed.
        await recordAudit(trx, {
          actorUserId: principal.userId,
          action: 'user.invited',
          subject: person.email.toLowerCase(),
          detail: { teamId: team.id, role: person.role },
          teamId: team.id,
          ip,
        });
        ids.push(await this.mailer.write(trx, email));
      }
      await addTeamMembers(trx, team.id, newMembers);
      return ids;
    });
    await this.mailer.enqueue(emailIds);
    return { invited: people.length };
  }

  async acceptInvitation(code: string): Promise<{ message: string; teamName: string }> {
    return acceptInvitation(this.db, code);
  }

  async demoRequest(body: DemoRequestBody, remoteIp: string): Promise<{ message: string }> {
    await this.checkCaptcha(body.captchaToken, remoteIp);
    const emailId = await this.db.transaction().execute(async (trx) => {
      const request = { ...body, comment: body.comment || null };
      await insertDemoRequest(trx, request);
      return this.mailer.write(
        trx,
        demoRequestNotification({ to: this.deps.config.DEMO_REQUEST_NOTIFY_EMAIL, request }),
      );
    });
    await this.mailer.enqueue([emailId]);
    return { message: 'Thank you. We will be in touch shortly to arrange your demo.' };
  }

  private async checkCaptcha(token: string | undefined, remoteIp: string): Promise<void> {
    if (!(await this.deps.captcha.verify(token, remoteIp))) throw captchaFailed();
  }
}
