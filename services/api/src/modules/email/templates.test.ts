import { describe, expect, it } from 'vitest';
import {
  alreadyRegisteredEmail,
  confirmationEmail,
  demoRequestNotification,
  describeDuration,
  groupInvitationEmail,
  resetPasswordEmail,
} from './templates';

describe('describeDuration', () => {
  it('names the largest whole unit', () => {
    expect(describeDuration(7 * 24 * 3600)).toBe('7 days');
    expect(describeDuration(3600)).toBe('1 hour');
    expect(describeDuration(90 * 60)).toBe('90 minutes');
    expect(describeDuration(60)).toBe('1 minute');
    expect(describeDuration(61)).toBe('1 minute');
  });
});

describe('e-mail templates', () => {
  const link = 'https://locus.example.org/x?code=abc';

  it('put the link and its lifetime in confirmation and reset e-mails', () => {
    const confirm = confirmationEmail({
      to: 'a@b.test',
      firstName: 'Ann',
      link,
      validForSeconds: 604800,
    });
    expect(confirm.subject).toMatch(/confirm/i);
    expect(confirm.text).toContain(link);
    expect(confirm.text).toContain('7 days');
    const reset = resetPasswordEmail({
      to: 'a@b.test',
      firstName: 'Ann',
      link,
      validForSeconds: 3600,
    });
    expect(reset.text).toContain(link);
    expect(reset.text).toContain('1 hour');
  });

  it('tell an existing account holder how to sign in or reset, without a confirmation link', () => {
    const notice = alreadyRegisteredEmail({
      to: 'a@b.test',
      firstName: 'Ann',
      signInLink: 'https://l.test/auth/sign-in',
      resetLink: 'https://l.test/auth/forgot-password',
    });
    expect(notice.text).toContain('already have an account');
    expect(notice.text).toContain('https://l.test/auth/forgot-password');
    expect(notice.text).not.toContain('verification-code');
  });

  it('name the team and the inviter in a group invitation', () => {
    const invitation = groupInvitationEmail({
      to: 'a@b.test',
      firstName: 'Ann',
      teamName: 'Demo County 911',
      invitedBy: 'Terry Admin',
      link,
      validForSeconds: 604800,
    });
    expect(invitation.subject).toContain('Demo County 911');
    expect(invitation.text).toContain('Terry Admin');
    expect(invitation.text).toContain(link);
  });

  it('list every field of a demo request', () => {
    const email = demoRequestNotification({
      to: 'sales@locus.test',
      request: {
        firstName: 'Ann',
        lastName: 'Lee',
        email: 'ann@county.test',
        phoneNumber: '+12025550100',
        companyName: 'County 911',
        comment: null,
      },
    });
    expect(email.to).toBe('sales@locus.test');
    for (const value of ['Ann Lee', 'ann@county.test', '+12025550100', 'County 911', '(none)'])
      expect(email.text).toContain(value);
  });
});
