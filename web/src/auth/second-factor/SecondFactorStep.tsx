import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { errorCode } from '../../app/api';
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

function refusal(error: unknown): string {
  switch (errorCode(error)) {
    case 'invalid-mfa-code':
      return 'That code is not right, or it has been used already. Try the current code.';
    case 'rate-limited':
      return 'Too many attempts. Please wait a moment and try again.';
    default:
      return 'Something went wrong. Please try again.';
  }
}

/** Sign-in's second step: a code from the authenticator app, or a recovery code. */
export function SecondFactorStep({ flow }: { flow: SecondFactorFlow }) {
  const [code, setCode] = useState('');
  const [empty, setEmpty] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const text = copy[flow.method];
  const other = flow.method === 'totp' ? 'recovery' : 'totp';

  // A new step, a switched method or a refused code: the field is where the user types next.
  useEffect(() => {
    input.current?.focus();
  }, [flow.method, flow.error]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = flow.method === 'totp' ? code.replace(/\s+/g, '') : code.trim();
    setEmpty(typed === '');
    if (typed !== '' && !flow.isPending) flow.submit(typed);
  };

  return (
    <form noValidate onSubmit={submit}>
      <Stack>
        <Text size="sm">{text.description}</Text>
        <TextInput
          ref={input}
          key={flow.method}
          label={text.label}
          withAsterisk
          autoComplete="one-time-code"
          inputMode={flow.method === 'totp' ? 'numeric' : 'text'}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          error={empty ? 'Required' : undefined}
        />
        {flow.error !== null && (
          <Alert color="red" role="alert">
            {refusal(flow.error)}
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
