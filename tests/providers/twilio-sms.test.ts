import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmsError } from '../../services/worker/src/providers/sms/provider';
import { TwilioSmsProvider } from '../../services/worker/src/providers/sms/twilio';
import { FakeTwilio } from '../fakes/twilio-server';

// The production adapter (the official `twilio` package and its HTTP client) against a fake
// Twilio speaking the Messages API.
let fake: FakeTwilio;

beforeAll(async () => {
  fake = await FakeTwilio.start();
});

afterAll(async () => {
  await fake?.close();
});

const provider = (from = '+12025550000', authToken?: string) =>
  new TwilioSmsProvider({
    accountSid: fake.accountSid,
    authToken: authToken ?? fake.authToken,
    from,
    apiBaseUrl: fake.url,
  });

async function failure(promise: Promise<unknown>): Promise<SmsError> {
  const error = await promise.then(
    () => new Error('expected the send to fail'),
    (e: unknown) => e,
  );
  if (!(error instanceof SmsError)) throw error;
  return error;
}

describe('the Twilio SMS adapter', () => {
  it('sends the body to the number, with the status callback, and returns the message sid', async () => {
    const sent = await provider().send({
      to: '+12025550123',
      body: 'Dispatch asks for your location: https://locus.test/l/abc',
      statusCallbackUrl: 'https://locus.test/api/v1/twilio/status',
    });
    expect(sent.providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(sent.status).toBe('queued');
    expect(fake.messages.at(-1)).toMatchObject({
      sid: sent.providerMessageId,
      to: '+12025550123',
      from: '+12025550000',
      body: 'Dispatch asks for your location: https://locus.test/l/abc',
      statusCallback: 'https://locus.test/api/v1/twilio/status',
    });
  });

  it('sends through a Messaging Service when the sender is an MG sid', async () => {
    await provider('MG0123456789abcdef0123456789abcdef').send({ to: '+12025550124', body: 'x' });
    expect(fake.messages.at(-1)).toMatchObject({
      from: null,
      messagingServiceSid: 'MG0123456789abcdef0123456789abcdef',
    });
  });

  it('reports an opted-out number, a landline and an invalid number as terminal', async () => {
    fake.optedOut.add('+12025550125');
    fake.landlines.add('+12025550126');
    const optedOut = await failure(provider().send({ to: '+12025550125', body: 'x' }));
    expect([optedOut.code, optedOut.terminal]).toEqual(['opted-out', true]);
    const landline = await failure(provider().send({ to: '+12025550126', body: 'x' }));
    expect([landline.code, landline.terminal]).toEqual(['not-mobile', true]);
    const invalid = await failure(provider().send({ to: '12345', body: 'x' }));
    expect([invalid.code, invalid.terminal]).toEqual(['invalid-number', true]);
  });

  it('reports an outage as retryable and wrong credentials as terminal', async () => {
    fake.failNext = 1;
    const outage = await failure(provider().send({ to: '+12025550127', body: 'x' }));
    expect([outage.code, outage.terminal]).toEqual(['unavailable', false]);
    const wrongKey = await failure(
      provider('+12025550000', 'wrong').send({ to: '+12025550127', body: 'x' }),
    );
    expect(wrongKey.terminal).toBe(true);
  });

  it('finds a text it already accepted only by its own token, sent since the first attempt', async () => {
    const to = '+12025550188';
    const mine = 'Share your location: https://locus.test/share?token=mineMINEmine0123456789';
    const other = 'Share your location: https://locus.test/share?token=otherOTHERother0123456';
    const first = await provider().send({ to, body: other });
    const second = await provider().send({ to, body: mine });
    const lookup = (token: string, since: Date) => provider().findSent({ to, token, since });
    const anHourAgo = new Date(Date.now() - 3_600_000);
    expect(await lookup('mineMINEmine0123456789', anHourAgo)).toMatchObject({
      providerMessageId: second.providerMessageId,
    });
    expect(await lookup('otherOTHERother0123456', anHourAgo)).toMatchObject({
      providerMessageId: first.providerMessageId,
    });
    // Another text's token, or one sent before the attempt began, is not this text.
    expect(await lookup('neverSENTnever01234567', anHourAgo)).toBeUndefined();
    expect(
      await lookup('mineMINEmine0123456789', new Date(Date.now() + 3_600_000)),
    ).toBeUndefined();
  });
});
