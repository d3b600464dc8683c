import { Alert, Anchor, Button, Divider, Group, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { errorCode } from '../../app/api';
import { PasskeyCeremonyError } from '../passkeys/ceremony-error';
import type { SecondFactorFlow } from './useSignInFlow';

const copy = {
  totp: {
    label: 'Authentication code',
    description: 'Enter the 6-digit code from your authenticator app.',
    switchTo: 'Use a recovery code instead',
  },
  recovery: {
    label: 'Recovery code',
    description: 'Enter one of the recovery codes you saved when you set up two-step sign-in.',
    switchTo: 'Use your authenticator app instead',
  },
} as const;

function refusal(error: unknown, by: 'code' | 'passkey'): string {
  if (error instanceof PasskeyCeremonyError)
    return 'The passkey was not used. Try again, or use another way to sign in.';
  switch (errorCode(error)) {
    case 'invalid-mfa-code':
      return by === 'passkey'
        ? 'That passkey was not accepted. Try again, or use another way to sign in.'
        : 'That code is not right, or it has been used already. Try the current code.';
    case 'rate-limited':
      return 'Too many attempts. Please wait a moment and try again.';
    default:
      return 'Something went wrong. Please try again.';
  }
}

/** "Use a passkey": the browser asks for the passkey on this device or a security key. */
function PasskeyChoice({
  flow,
  error,
  only,
}: {
  flow: SecondFactorFlow;
  error: unknown;
  only: boolean;
}) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (only) button.current?.focus();
  }, [only, error]);
  return (
    <Stack gap="xs">
      <Text size="sm">
        {only
          ? 'Use the passkey on this device or your security key to finish signing in.'
          : 'Or use a passkey on this device or a security key.'}
      </Text>
      {error !== null && (
        <Alert color="red" role="alert">
          {refusal(error, 'passkey')}
        </Alert>
      )}
      <Button
        ref={button}
        type="button"
        size="md"
        variant={only ? 'filled' : 'default'}
        loading={flow.isPending}
        disabled={flow.isPending}
        onClick={flow.usePasskey}
      >
        Use a passkey
      </Button>
    </Stack>
  );
}

/** Sign-in's second step: a code from the authenticator app, a recovery code, or a passkey. */
export function SecondFactorStep({ flow }: { flow: SecondFactorFlow }) {
  const offersPasskey = flow.methods.includes('webauthn');
  // Which answer the shown refusal belongs to.
  const [attempt, setAttempt] = useState<'code' | 'passkey'>('code');
  if (flow.method === 'webauthn') {
    return (
      <Stack>
        <PasskeyChoice flow={flow} error={flow.error} only />
        <Group justify="flex-end">
          <Anchor component="button" type="button" size="sm" onClick={flow.startOver}>
            Start over
          </Anchor>
        </Group>
      </Stack>
    );
  }
  const passkeyFlow: SecondFactorFlow = {
    ...flow,
    usePasskey: () => {
      setAttempt('passkey');
      flow.usePasskey();
    },
  };
  const codeFlow: SecondFactorFlow = {
    ...flow,
    error: attempt === 'code' ? flow.error : null,
    submit: (code) => {
      setAttempt('code');
      flow.submit(code);
    },
  };
  return (
    <Stack>
      <CodeStep flow={codeFlow} method={flow.method} />
      {offersPasskey && (
        <>
          <Divider label="or" labelPosition="center" />
          <PasskeyChoice
            flow={passkeyFlow}
            error={attempt === 'passkey' ? flow.error : null}
            only={false}
          />
        </>
      )}
    </Stack>
  );
}

/** A code from the authenticator app, or a recovery code. */
function CodeStep({ flow, method }: { flow: SecondFactorFlow; method: 'totp' | 'recovery' }) {
  const [code, setCode] = useState('');
  const [empty, setEmpty] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const text = copy[method];
  const other = method === 'totp' ? 'recovery' : 'totp';

  // A new step, a switched method or a refused code: the field is where the user types next.
  useEffect(() => {
    input.current?.focus();
  }, [method, flow.error]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = method === 'totp' ? code.replace(/\s+/g, '') : code.trim();
    setEmpty(typed === '');
    if (typed !== '' && !flow.isPending) flow.submit(typed);
  };

  return (
    <form noValidate onSubmit={submit}>
      <Stack>
        <Text size="sm">{text.description}</Text>
        <TextInput
          ref={input}
          key={method}
          label={text.label}
          withAsterisk
          autoComplete="one-time-code"
          inputMode={method === 'totp' ? 'numeric' : 'text'}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          error={empty ? 'Required' : undefined}
        />
        {flow.error !== null && (
          <Alert color="red" role="alert">
            {refusal(flow.error, 'code')}
          </Alert>
        )}
        <Group justify="space-between">
          {flow.methods.includes(other) ? (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => {
                setCode('');
                flow.chooseMethod(other);
              }}
            >
              {text.switchTo}
            </Anchor>
          ) : (
            <span />
          )}
          <Anchor component="button" type="button" size="sm" onClick={flow.startOver}>
            Start over
          </Anchor>
        </Group>
        <Button type="submit" size="md" loading={flow.isPending} disabled={flow.isPending}>
          Verify
        </Button>
      </Stack>
    </form>
  );
}
