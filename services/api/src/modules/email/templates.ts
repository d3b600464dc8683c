/**
 * The e-mails Locus sends, as plain text. Each template is a pure function of what it needs;
 * the rendered subject and text are stored in `emails`, so what a user received can always be
 * shown again exactly.
 */
export interface RenderedEmail {
  template: EmailTemplate;
  to: string;
  subject: string;
  text: string;
}

export type EmailTemplate =
  | 'confirm-email'
  | 'reset-password'
  | 'already-registered'
  | 'group-invitation'
  | 'team-invitation'
  | 'demo-request'
  | 'verification-rejected';

/** "7 days", "1 hour", "30 minutes": how long a link works, in words. */
export function describeDuration(seconds: number): string {
  const units: [number, string][] = [
    [24 * 3600, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    if (seconds >= size && seconds % size === 0) {
      const count = seconds / size;
      return `${count} ${name}${count === 1 ? '' : 's'}`;
    }
  }
  const minutes = Math.max(1, Math.round(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

const signature = '\n\n— Locus\n';

export function confirmationEmail(input: {
  to: string;
  firstName: string;
  link: string;
  validForSeconds: number;
}): RenderedEmail {
  return {
    template: 'confirm-email',
    to: input.to,
    subject: 'Confirm your e-mail address for Locus',
    text:
      `Hello ${input.firstName},\n\n` +
      `Please confirm your e-mail address by opening this link:\n\n${input.link}\n\n` +
      `The link works once and for ${describeDuration(input.validForSeconds)}. ` +
      `If you did not create a Locus account, ignore this e-mail.` +
      signature,
  };
}

export function resetPasswordEmail(input: {
  to: string;
  firstName: string;
  link: string;
  validForSeconds: number;
}): RenderedEmail {
  return {
    template: 'reset-password',
    to: input.to,
    subject: 'Reset your Locus password',
    text:
      `Hello ${input.firstName},\n\n` +
      `Someone asked to reset the password of your Locus account. To choose a new one, open:\n\n` +
      `${input.link}\n\n` +
      `The link works once and for ${describeDuration(input.validForSeconds)}. ` +
      `Setting a new password signs you out everywhere. ` +
      `If you did not ask for this, ignore this e-mail: your password stays as it is.` +
      signature,
  };
}

/** Sent instead of a confirmation link when someone registers an address that has an account. */
export function alreadyRegisteredEmail(input: {
  to: string;
  firstName: string;
  signInLink: string;
  resetLink: string;
}): RenderedEmail {
  return {
    template: 'already-registered',
    to: input.to,
    subject: 'You already have a Locus account',
    text:
      `Hello ${input.firstName},\n\n` +
      `Someone just tried to create a Locus account with this e-mail address, ` +
      `but you already have an account.\n\n` +
      `Sign in: ${input.signInLink}\n` +
      `Forgot your password? Reset it: ${input.resetLink}\n\n` +
      `If this was not you, you can ignore this e-mail; nothing has changed on your account.` +
      signature,
  };
}

export function groupInvitationEmail(input: {
  to: string;
  firstName: string;
  teamName: string;
  invitedBy: string;
  link: string;
  validForSeconds: number;
}): RenderedEmail {
  return {
    template: 'group-invitation',
    to: input.to,
    subject: `You have been added to ${input.teamName} on Locus`,
    text:
      `Hello ${input.firstName},\n\n` +
      `${input.invitedBy} created a Locus account for you on the team ${input.teamName}.\n\n` +
      `Choose your password to start:\n\n${input.link}\n\n` +
      `The link works once and for ${describeDuration(input.validForSeconds)}. ` +
      `After that, use "Forgot password" on the sign-in page.` +
      signature,
  };
}

/** To someone who already has an account: joining the team is theirs to accept. */
export function teamInvitationEmail(input: {
  to: string;
  firstName: string;
  teamName: string;
  invitedBy: string;
  link: string;
  validForSeconds: number;
}): RenderedEmail {
  return {
    template: 'team-invitation',
    to: input.to,
    subject: `You are invited to join ${input.teamName} on Locus`,
    text:
      `Hello ${input.firstName},\n\n` +
      `${input.invitedBy} invited your Locus account to the team ${input.teamName}.\n\n` +
      `To join it, open this link and choose "Join the team":\n\n${input.link}\n\n` +
      `The link works once and for ${describeDuration(input.validForSeconds)}. ` +
      `If you did not expect this invitation, ignore this e-mail: nothing changes until you accept.` +
      signature,
  };
}

export function demoRequestNotification(input: {
  to: string;
  request: {
    firstName: string;
    lastName: string;
    email: string;
    phoneNumber: string;
    companyName: string;
    comment: string | null;
  };
}): RenderedEmail {
  const { request } = input;
  return {
    template: 'demo-request',
    to: input.to,
    subject: `Demo request from ${request.companyName}`,
    text:
      `A demo was requested on the Locus website.\n\n` +
      `Name:    ${request.firstName} ${request.lastName}\n` +
      `E-mail:  ${request.email}\n` +
      `Phone:   ${request.phoneNumber}\n` +
      `Agency:  ${request.companyName}\n` +
      `Comment: ${request.comment ?? '(none)'}\n`,
  };
}

/** The platform owner's answer to a user waiting for verification who was not approved. */
export function verificationRejectedEmail(input: {
  to: string;
  firstName: string;
  reason: string;
}): RenderedEmail {
  return {
    template: 'verification-rejected',
    to: input.to,
    subject: 'Your Locus account was not approved',
    text:
      `Hello ${input.firstName},\n\n` +
      `We reviewed your Locus account and could not approve it for locating callers.\n\n` +
      `The reason given:\n\n${input.reason}\n\n` +
      `If you think this is a mistake, ask your agency's administrator to contact Locus.` +
      signature,
  };
}
