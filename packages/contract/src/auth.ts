import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IntegerId } from './database-ids';
import { ErrorBody } from './errors';
import { MfaChallenge } from './mfa-challenge';
import { UsersListQuery, UsersPage } from './users-admin';
import { publicRoute } from './route-security';

const c = initContract();

/** SPEC.md §9: passwords have at least 8 characters. */
export const passwordMinLength = 8;
/** ASVS 2.1.2: new passwords may have up to 128 characters. */
export const passwordMaxLength = 128;
/**
 * Sign-in still takes the old bound, so that a password chosen before the 128 limit still
 * works; the bound keeps hashing from being used to burn CPU.
 */
export const signInPasswordMaxLength = 256;

/** Session lifetimes: "Stay signed in" (the default) keeps a token for 30 days, otherwise 12 hours. */
export const sessionLifetimes = {
  staySignedInSeconds: 30 * 24 * 60 * 60,
  shortSeconds: 12 * 60 * 60,
} as const;

/** Five failed sign-ins for one address lock it for ten minutes. */
export const signInLockout = { maxFailures: 5, lockSeconds: 10 * 60 } as const;

export const Email = z.string().trim().toLowerCase().max(254).email('Enter a valid email');
const Name = z.string().trim().min(1, 'Required').max(100);
const Password = z
  .string()
  .min(passwordMinLength, `Password must have ${passwordMinLength} characters or more`)
  .max(passwordMaxLength, `Password must have ${passwordMaxLength} characters or fewer`);
/** A phone number as the user typed it; E.164 normalisation happens where it is dialled. */
const PhoneNumber = z.string().trim().max(32);
/** Confirmation and reset codes: 256 random bits, base64url. */
export const OneTimeCode = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'This link is invalid');

export const SignInBody = z.object({
  email: Email,
  password: z.string().min(1, 'Required').max(signInPasswordMaxLength),
  staySignedIn: z.boolean().default(true),
  /** Asked for (401 `captcha-required`) after three failed sign-ins, when a captcha is configured. */
  captchaToken: z.string().max(4096).optional(),
});
export type SignInBody = z.infer<typeof SignInBody>;

/** A bearer token and when it stops working. */
export const AuthToken = z.object({
  token: z.string(),
  /** ISO 8601, UTC. */
  expiresAt: z.string().datetime(),
});
export type AuthToken = z.infer<typeof AuthToken>;

/** Sign-in's answer: a session, or (the user has a second factor) a challenge for its code. */
export const SignInAnswer = z.union([AuthToken, MfaChallenge]);
export type SignInAnswer = z.infer<typeof SignInAnswer>;

/** SPEC.md §3 "Sign-up payload". */
export const RegisterBody = z.object({
  firstName: Name,
  lastName: Name,
  email: Email,
  password: Password,
  captchaToken: z.string().max(4096).optional(),
  agreedToTermsOfService: z.literal(true, {
    errorMap: () => ({ message: 'You must accept the Terms of Use and Service' }),
  }),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

/** SPEC.md §3 "Profile completion payload" (a listed agency). */
export const CompleteRegistrationBody = z.object({
  psapPrimaryKey: IntegerId,
  phoneNumber: PhoneNumber.optional(),
  companyName: z.string().trim().max(200).optional(),
});
export type CompleteRegistrationBody = z.infer<typeof CompleteRegistrationBody>;

/** Sign-up with "My agency isn't listed": the agency's name is required instead. */
export const JoinUnlistedBody = z.object({
  companyName: z.string().trim().min(1, 'Required').max(200),
  phoneNumber: PhoneNumber.optional(),
});
export type JoinUnlistedBody = z.infer<typeof JoinUnlistedBody>;

/** The reduced coast-guard registration: the unit's name, nothing else. */
export const CompleteUscgRegistrationBody = z.object({
  unitName: z.string().trim().min(1, 'Required').max(200),
});
export type CompleteUscgRegistrationBody = z.infer<typeof CompleteUscgRegistrationBody>;

/** A team admin creates several accounts at once; each gets an e-mail to set a password. */
export const GroupRegisterBody = z.object({
  teamId: z.string().uuid(),
  users: z
    .array(
      z.object({
        firstName: Name,
        lastName: Name,
        email: Email,
        role: z.enum(['admin', 'member']).default('member'),
      }),
    )
    .min(1)
    .max(200),
});
export type GroupRegisterBody = z.infer<typeof GroupRegisterBody>;
/**
 * The same whether or not an address already had an account, so the answer reveals nothing:
 * every address gets an e-mail. A new address gets an account and a link to choose a password;
 * an existing account gets an invitation its owner accepts (it is never added silently).
 */
export const GroupRegisterResult = z.object({
  /** Distinct addresses e-mailed. */
  invited: z.number().int(),
});

/** The code from a team invitation's link. */
export const AcceptInvitationBody = z.object({ invitationCode: OneTimeCode });
export const InvitationAccepted = z.object({ message: z.string(), teamName: z.string() });

export const EmailBody = z.object({ email: Email });
export const ConfirmEmailBody = z.object({ verificationCode: OneTimeCode });
export const UpdatePasswordBody = z.object({ resetCode: OneTimeCode, password: Password });
/**
 * The profile's password change: the current password proves it is the user at the keyboard (a
 * borrowed session cannot lock its owner out), the new one follows the registration rules.
 */
export const ChangePasswordBody = z.object({
  currentPassword: z.string().min(1, 'Required').max(signInPasswordMaxLength),
  newPassword: Password,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/** The same answer whether or not an account exists. */
export const Accepted = z.object({ message: z.string() });

/** SPEC.md §3 "Demo request". */
export const DemoRequestBody = z.object({
  firstName: Name,
  lastName: Name,
  email: Email,
  phoneNumber: PhoneNumber.min(1, 'Required'),
  companyName: z.string().trim().min(1, 'Required').max(200),
  comment: z.string().trim().max(2000).optional(),
  captchaToken: z.string().max(4096).optional(),
});
export type DemoRequestBody = z.infer<typeof DemoRequestBody>;

/** The limits of a team's custom links (SPEC.md §3 Team `customContent`). */
export const customContentLimits = {
  nameMaxLength: 60,
  linkMaxLength: 2048,
  /** Links in each of the two lists (header, header dropdown). */
  linksPerList: 10,
} as const;

/**
 * One of a team's custom links, shown in the console's user menu and opened in a new tab.
 * `https:` only: a link a team admin enters is opened by every dispatcher of the team, so it
 * must neither run script (`javascript:`) nor travel in the clear.
 */
export const HeaderLink = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Required')
    .max(
      customContentLimits.nameMaxLength,
      `At most ${customContentLimits.nameMaxLength} characters`,
    ),
  link: z
    .string()
    .trim()
    .max(customContentLimits.linkMaxLength)
    .url('Enter a full link, starting with https://')
    .refine((value) => /^https:\/\/[^/?#\s]/i.test(value), 'Links must start with https://'),
});
export type HeaderLink = z.infer<typeof HeaderLink>;
const HeaderLinks = z
  .array(HeaderLink)
  .max(customContentLimits.linksPerList, `At most ${customContentLimits.linksPerList} links`);
export const TeamCustomContent = z.object({
  links: z.object({ header: HeaderLinks, headerDropdown: HeaderLinks }),
});
export type TeamCustomContent = z.infer<typeof TeamCustomContent>;

export const PermissionLevel = z.enum(['premiere', 'enterprise']);
export type PermissionLevel = z.infer<typeof PermissionLevel>;

/** SPEC.md §3 "Team", plus what the console needs to gate menus. */
export const Team = z.object({
  id: z.string().uuid(),
  teamName: z.string(),
  isActive: z.boolean(),
  isPlatformOwner: z.boolean(),
  isCoastGuard: z.boolean(),
  permissionLevels: z.array(PermissionLevel),
  /** The signed-in user's role on this team. */
  role: z.enum(['admin', 'member']),
  customContent: TeamCustomContent,
});
export type Team = z.infer<typeof Team>;

/**
 * The console's colour scheme, remembered per user rather than per browser so that a
 * dispatcher who chose the dark theme for night shifts gets it on any console they sign in to.
 * `auto` follows the system's `prefers-color-scheme`. One schema for the user, the self patch
 * and the database's check constraint.
 */
export const ColorScheme = z.enum(['auto', 'light', 'dark']);
export type ColorScheme = z.infer<typeof ColorScheme>;

/** SPEC.md §3 "Current user". */
export const CurrentUser = z.object({
  id: z.string().uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phoneNumber: z.string().nullable(),
  psapId: z.number().int().nullable(),
  /** The name of the user's first active team, else the agency name they gave. */
  companyName: z.string().nullable(),
  isAdmin: z.boolean(),
  isTeamAdmin: z.boolean(),
  hasSeenWalkthrough: z.boolean(),
  emailConfirmed: z.boolean(),
  /** Set while a coast-guard user waits for a coast-guard team admin. */
  uscgApproval: z.enum(['pending', 'approved', 'rejected']).nullable(),
  /** Whether registration is complete (agency chosen, unlisted agency named, or coast guard). */
  registrationComplete: z.boolean(),
  colorScheme: ColorScheme.default('auto'),
  /** An authenticator app is enrolled. */
  mfaEnabled: z.boolean().default(false),
  /**
   * A team of the user requires multi-factor authentication and this session has not passed a
   * second step: with `mfaEnabled`, the user signs in again; without, they enrol first.
   */
  mfaRequired: z.boolean().default(false),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody };

export const authContract = c.router(
  {
    signIn: {
      method: 'POST',
      path: '/api/v1/auth/sign-in',
      ...publicRoute,
      summary: 'Sign in; returns a bearer token, or a challenge for the second factor',
      description:
        'Any failure answers 401 `invalid-credentials`. Five failures for one address lock it for ten minutes (401 `account-locked`). ' +
        'Past three failures from one client address (ten from its /24 or /64), each further attempt waits 1, 2, 4 … up to 30 seconds (429 `rate-limited` with Retry-After). ' +
        'With a captcha configured, past three failures for the address or the client it must be solved (401 `captcha-required`).',
      body: SignInBody,
      responses: { 200: SignInAnswer, ...errors },
    },
    signOut: {
      method: 'POST',
      path: '/api/v1/auth/sign-out',
      summary: 'Revoke the bearer token',
      description:
        'Ends this session: the token stops working at once, and the session cookie is cleared. Other sessions of the user stay signed in (see `/auth/sessions/sign-out-others`). Answers 204.',
      body: c.noBody(),
      responses: { 204: c.noBody(), ...errors },
    },
    register: {
      method: 'POST',
      path: '/api/v1/auth/register',
      ...publicRoute,
      summary: 'Create an account; returns a bearer token',
      description:
        'The answer is the same whether or not the address already has an account: an account for an address that is already registered is never confirmed, and its owner is told by e-mail.',
      body: RegisterBody,
      responses: { 201: AuthToken, ...errors },
    },
    groupRegister: {
      method: 'POST',
      path: '/api/v1/auth/group-register',
      summary: 'Team admins: create several accounts on a team at once',
      description:
        'New addresses get an account and a link to choose a password; addresses that already have an account get an invitation to accept. The answer is the same either way.',
      body: GroupRegisterBody,
      responses: { 200: GroupRegisterResult, ...errors },
    },
    acceptInvitation: {
      method: 'POST',
      path: '/api/v1/auth/accept-invitation',
      ...publicRoute,
      summary: "Join a team with the code from an invitation's link (single-use, expiring)",
      description:
        "The code is the credential: no sign-in is needed. Answers the team's name. A used, unknown or expired code is 400 `invalid-code`.",
      body: AcceptInvitationBody,
      responses: { 200: InvitationAccepted, ...errors },
    },
    completeRegistration: {
      method: 'POST',
      path: '/api/v1/auth/complete-registration',
      summary: "Complete the signed-in user's profile with a listed agency",
      description:
        "Step 2 of sign-up (SPEC.md §3): the agency chosen from `/psap/search` and the user's phone number. Answers the updated user.",
      body: CompleteRegistrationBody,
      responses: { 200: CurrentUser, ...errors },
    },
    joinUnlisted: {
      method: 'POST',
      path: '/api/v1/auth/join-unlisted',
      summary: "Complete the profile of a user whose agency isn't listed",
      description:
        'Step 2 of sign-up when `/psap/search` does not find the agency: the user names it, and a platform admin verifies it. Answers the updated user.',
      body: JoinUnlistedBody,
      responses: { 200: CurrentUser, ...errors },
    },
    completeRegistrationUscg: {
      method: 'POST',
      path: '/api/v1/auth/complete-registration-uscg',
      summary: 'The reduced coast-guard registration; waits for a coast-guard team admin',
      description:
        "For addresses of the coast guard's domain: the unit's name and a phone number. The user can locate once a coast-guard team admin approves them (`/uscg/{userId}/{decision}`). Answers the updated user.",
      body: CompleteUscgRegistrationBody,
      responses: { 200: CurrentUser, ...errors },
    },
    resendEmailConfirmation: {
      method: 'POST',
      path: '/api/v1/auth/resend-email-confirmation',
      ...publicRoute,
      summary: 'Send the e-mail confirmation link again (same answer for any address)',
      description:
        'Answers 202 whether or not the address has an account, so that it cannot be used to find out who does. Rate-limited per client address.',
      body: EmailBody,
      responses: { 202: Accepted, ...errors },
    },
    confirmEmail: {
      method: 'POST',
      path: '/api/v1/auth/confirm-email',
      ...publicRoute,
      summary: 'Confirm an e-mail address with the code from the link',
      description:
        'The code from the link in the confirmation e-mail is the credential: no sign-in is needed. A wrong or expired code is 400 `invalid-code`.',
      body: ConfirmEmailBody,
      responses: { 200: Accepted, ...errors },
    },
    forgotPassword: {
      method: 'POST',
      path: '/api/v1/auth/forgot-password',
      ...publicRoute,
      summary: 'E-mail a password reset link (same answer for any address)',
      description:
        "Answers 202 whether or not the address has an account. The link's code expires; rate-limited per client address.",
      body: EmailBody,
      responses: { 202: Accepted, ...errors },
    },
    updatePassword: {
      method: 'POST',
      path: '/api/v1/auth/update-password',
      ...publicRoute,
      summary: 'Set a new password with the code from the reset link; signs out every session',
      description:
        'The code from the reset e-mail is the credential. Every session of the user is revoked, so a stolen session ends with the reset. A wrong or expired code is 400 `invalid-code`.',
      body: UpdatePasswordBody,
      responses: { 200: Accepted, ...errors },
    },
    changePassword: {
      method: 'POST',
      path: '/api/v1/auth/change-password',
      summary:
        "Change the signed-in user's password (the current one required); signs out their other sessions",
      description:
        'A wrong current password answers 401 `invalid-credentials` and counts toward the sign-in lockout like a failed sign-in; a locked account answers 401 `account-locked`, and an address held back for the account 429 `rate-limited` with Retry-After, as at sign-in. ' +
        'The new password follows the registration rules (8 to 128 characters, not a common password, not the current one): 400 `validation-failed` naming `newPassword`. ' +
        'On success every other session of the user ends, with its dispatcher sockets; this one stays signed in. Audited as `password.changed`.',
      body: ChangePasswordBody,
      responses: { 200: Accepted, 409: ErrorBody, ...errors },
    },
    currentUser: {
      method: 'GET',
      path: '/api/v1/auth/current-user',
      summary: 'The signed-in user',
      description:
        'Who is signed in: name, e-mail, agency, roles, whether the e-mail is confirmed, and `mfaRequired` when a team requires a second step this session has not passed.',
      responses: { 200: CurrentUser, ...errors },
    },
    users: {
      method: 'GET',
      path: '/api/v1/auth/users/',
      summary:
        'Admins: the users they manage (platform admins: everyone); the same as GET /api/v1/users/',
      description:
        'Paginated, searchable and sortable exactly like GET /api/v1/users/. Team admins see only the users of the teams they administer; dispatchers get 403.',
      query: UsersListQuery,
      responses: { 200: UsersPage, ...errors, 404: ErrorBody },
    },
    demoRequest: {
      method: 'POST',
      path: '/api/v1/auth/demo-request',
      ...publicRoute,
      summary: 'Book a demo',
      description:
        'From the public site: the request is stored and e-mailed to the Locus team. A captcha token is required when a captcha provider is configured (`/config`).',
      body: DemoRequestBody,
      responses: { 202: Accepted, ...errors },
    },
  },
  { strictStatusCodes: true },
);
