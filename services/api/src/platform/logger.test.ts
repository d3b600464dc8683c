import { describe, expect, it } from 'vitest';
import { redactUrl } from './logger';

describe('redactUrl', () => {
  it('hides socket tokens, reset and verification codes', () => {
    expect(redactUrl('/api/v1/socket?token=abc123&x=1')).toBe(
      '/api/v1/socket?token=[redacted]&x=1',
    );
    expect(redactUrl('/auth/forgot-password/reset?reset-code=s3cret')).toBe(
      '/auth/forgot-password/reset?reset-code=[redacted]',
    );
    expect(redactUrl('/register/email-confirmation?verification-code=zzz')).toBe(
      '/register/email-confirmation?verification-code=[redacted]',
    );
  });

  it('hides the socket token a case-transfer confirmation carries in its path', () => {
    const uuid = 'a92b7de1-702c-40b0-a237-2b0123456b6f';
    expect(
      redactUrl(
        `/api/v1/location/mark-case-transfer-confirmation/${uuid}/%2B12025550123/s3cretT0ken`,
      ),
    ).toBe(`/api/v1/location/mark-case-transfer-confirmation/${uuid}/[phone]/[redacted]`);
  });

  it('hides the signature of a media URL and the position of a photo upload (issue 19)', () => {
    // (The expiry's ten digits are taken for a phone number too; that costs nothing.)
    const signed = redactUrl('/api/v1/media/photos/3f2a?expires=1796000000&signature=c2lnbmF0dXJl');
    expect(signed).toContain('signature=[redacted]');
    expect(signed).not.toContain('c2lnbmF0dXJl');
    expect(
      redactUrl('/api/v1/caller/media?token=t&takenAt=x&latitude=38.8977&longitude=-77.0365'),
    ).toBe(
      '/api/v1/caller/media?token=[redacted]&takenAt=x&latitude=[redacted]&longitude=[redacted]',
    );
  });

  it('hides phone numbers in paths', () => {
    expect(redactUrl('/api/v1/location/check-transfer/0a9d/+12025550123')).toBe(
      '/api/v1/location/check-transfer/0a9d/[phone]',
    );
    expect(redactUrl('/api/v1/dev/outbox/sms?to=%2B12025550123')).toBe(
      '/api/v1/dev/outbox/sms?to=[phone]',
    );
  });

  it('leaves UUIDs whole', () => {
    const path = '/api/v1/location/set-date-time-completed/a92b7de1-702c-40b0-a237-2b0123456b6f';
    expect(redactUrl(path)).toBe(path);
  });
});
