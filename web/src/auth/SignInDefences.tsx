import { Alert, Input, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ApiError, errorCode } from '../app/api';
import { CaptchaWidget } from '../public-site/book-demo/CaptchaWidget';
import { usePublicConfig } from '../public-site/public-config';

/**
 * What the sign-in form shows once the server pushes back on repeated failures: the captcha
 * (after three failures, when one is configured; it stays for every later attempt, with a
 * fresh widget each time since tokens are single-use) and how long to wait when the network
 * is being slowed down.
 */
export function SignInDefences({
  error,
  onCaptchaToken,
}: {
  /** The last sign-in attempt's error, if any. */
  error: unknown;
  onCaptchaToken(token: string | undefined): void;
}) {
  const captcha = usePublicConfig().data?.captcha;
  const [asked, setAsked] = useState(false);
  const [round, setRound] = useState(0);
  const [seenError, setSeenError] = useState(error);
  const [unavailable, setUnavailable] = useState(false);
  const code = errorCode(error);
  // Adjusting state while rendering (React's pattern for reacting to a changed prop).
  if (error !== seenError) {
    setSeenError(error);
    setRound((current) => current + 1);
    if (code === 'captcha-required') setAsked(true);
  }
  // The widget is remounted after every attempt: the token it gave is used up.
  useEffect(() => onCaptchaToken(undefined), [round, onCaptchaToken]);

  const waitMessage =
    code === 'rate-limited'
      ? error instanceof ApiError && error.body?.message
        ? error.body.message
        : 'Too many failed sign-ins. Wait a moment and try again.'
      : undefined;
  return (
    <>
      {waitMessage && (
        <Alert color="red" role="alert">
          <Text size="sm">{waitMessage}</Text>
        </Alert>
      )}
      {code === 'captcha-required' && (
        <Alert color="red" role="alert">
          <Text size="sm">
            Too many failed attempts. Solve the security check, then sign in again.
          </Text>
        </Alert>
      )}
      {asked && captcha && captcha.provider !== 'off' && (
        <Input.Wrapper
          label="Security check"
          description="After several failed attempts, solve this check, then sign in again."
          error={
            unavailable
              ? 'The security check could not load. Reload the page and try again.'
              : undefined
          }
        >
          <CaptchaWidget
            key={round}
            settings={captcha}
            onToken={(token) => onCaptchaToken(token ?? undefined)}
            onUnavailable={() => setUnavailable(true)}
          />
        </Input.Wrapper>
      )}
    </>
  );
}
