import type { TotpEnrolment } from '@locus/contract';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Image,
  List,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, errorCode, expect } from '../../app/api';
import { reloadCurrentUser } from '../../app/auth';

export const mfaStatusQueryKey = ['mfa-status'] as const;

/** The QR code for the app, drawn in the browser: the secret never goes to a third party. */
function useQrCode(uri: string | undefined): string | undefined {
  const [dataUrl, setDataUrl] = useState<string>();
  useEffect(() => {
    if (!uri) return;
    let current = true;
    void import('qrcode').then(async (qrcode) => {
      const url = await qrcode.toDataURL(uri, { margin: 1, width: 192 });
      if (current) setDataUrl(url);
    });
    return () => {
      current = false;
    };
  }, [uri]);
  return uri ? dataUrl : undefined;
}

const codeMessage = (error: unknown) =>
  errorCode(error) === 'invalid-mfa-code'
    ? 'That code is not right. Enter the code the app shows now.'
    : 'Something went wrong. Please try again.';

/** A six-digit code field with its own submit button; spaces some apps show are ignored. */
function CodeForm({
  label,
  action,
  pending,
  error,
  onCode,
}: {
  label: string;
  action: string;
  pending: boolean;
  error: unknown;
  onCode(code: string): void;
}) {
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (error) field.current?.focus();
  }, [error]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const digits = code.replace(/\s+/g, '');
    const valid = /^\d{6}$/.test(digits);
    setInvalid(!valid);
    if (valid && !pending) onCode(digits);
  };
  return (
    <form noValidate onSubmit={submit}>
      <Stack gap="xs">
        <TextInput
          ref={field}
          label={label}
          withAsterisk
          autoComplete="one-time-code"
          inputMode="numeric"
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          error={invalid ? 'Enter the 6-digit code from your authenticator app' : undefined}
        />
        {error !== null && error !== undefined && (
          <Alert color="red" role="alert">
            {codeMessage(error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={pending} disabled={pending}>
            {action}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The recovery codes, shown once, right after enrolment. */
function RecoveryCodesShown({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Stack gap="xs">
      <Title order={4} ref={heading} tabIndex={-1}>
        Two-step sign-in is on
      </Title>
      <Text size="sm">
        Save these recovery codes somewhere safe. Each one signs you in once if you lose your phone.
        They will not be shown again.
      </Text>
      <List aria-label="Recovery codes" listStyleType="none" spacing={2}>
        {codes.map((code) => (
          <List.Item key={code}>
            <Code>{code}</Code>
          </List.Item>
        ))}
      </List>
      <Group justify="flex-end">
        <Button onClick={onDone}>I have saved my recovery codes</Button>
      </Group>
    </Stack>
  );
}

/** Scanning the QR code (or typing the key), then confirming with the app's first code. */
function Enrolment({
  enrolment,
  onEnrolled,
}: {
  enrolment: TotpEnrolment;
  onEnrolled(codes: string[]): void;
}) {
  const qr = useQrCode(enrolment.uri);
  const confirm = useMutation({
    mutationFn: async (code: string) =>
      expect(await api.mfa.confirmTotp({ body: { code } }), 200).recoveryCodes,
    onSuccess: onEnrolled,
  });
  return (
    <Stack gap="xs">
      <Text size="sm">
        Scan this QR code with an authenticator app (such as Microsoft Authenticator, Google
        Authenticator or 1Password), or type the setup key into it.
      </Text>
      {qr ? (
        <Image src={qr} alt="QR code for your authenticator app" w={192} h={192} />
      ) : (
        <Text size="sm">Drawing the QR code…</Text>
      )}
      <TextInput label="Setup key" value={enrolment.secret} readOnly ff="monospace" />
      <CodeForm
        label="Code from the app"
        action="Turn on"
        pending={confirm.isPending}
        error={confirm.error}
        onCode={(code) => confirm.mutate(code)}
      />
    </Stack>
  );
}

/**
 * The profile's "Two-step sign-in" (CJIS advanced authentication): set up an authenticator app,
 * see how many recovery codes are left, or turn it off with a current code.
 */
export function TwoStepSection() {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: mfaStatusQueryKey,
    queryFn: async () => expect(await api.mfa.status(), 200),
  });
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [password, setPassword] = useState('');
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: mfaStatusQueryKey });
    await reloadCurrentUser();
  };
  const start = useMutation({
    // The current password first: a session left open somewhere cannot add its own app.
    mutationFn: async (current: string) =>
      expect(await api.mfa.startTotp({ body: { password: current } }), 200),
    onSuccess: () => setPassword(''),
  });
  const disable = useMutation({
    mutationFn: async (code: string) => expect(await api.mfa.disableTotp({ body: { code } }), 200),
    onSuccess: async () => {
      setDisabling(false);
      await refresh();
    },
  });

  let body;
  if (recoveryCodes) {
    body = (
      <RecoveryCodesShown
        codes={recoveryCodes}
        onDone={() => {
          setRecoveryCodes(null);
          start.reset();
          void refresh();
        }}
      />
    );
  } else if (status.isPending) {
    body = <Text size="sm">Loading…</Text>;
  } else if (status.isError) {
    body = (
      <Alert color="red" role="alert">
        Your two-step sign-in settings could not be loaded.
      </Alert>
    );
  } else if (status.data.totp) {
    body = (
      <Stack gap="xs">
        <Text size="sm">
          <Badge color="green" mr="xs">
            On
          </Badge>
          You sign in with your password and a code from your authenticator app.{' '}
          {status.data.recoveryCodesLeft} recovery codes left.
        </Text>
        {disabling ? (
          <CodeForm
            label="Code from the app"
            action="Turn off two-step sign-in"
            pending={disable.isPending}
            error={disable.error}
            onCode={(code) => disable.mutate(code)}
          />
        ) : (
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => setDisabling(true)}
              disabled={status.data.requiredByTeam}
            >
              Turn off
            </Button>
          </Group>
        )}
        {status.data.requiredByTeam && (
          <Text size="sm" c="dimmed">
            Your team requires two-step sign-in, so it stays on.
          </Text>
        )}
      </Stack>
    );
  } else if (start.data) {
    body = (
      <Enrolment
        enrolment={start.data}
        onEnrolled={(codes) => {
          setRecoveryCodes(codes);
        }}
      />
    );
  } else {
    body = (
      <Stack gap="xs">
        <Text size="sm">
          {status.data.requiredByTeam
            ? 'Your team requires two-step sign-in: a code from an authenticator app on your phone after your password.'
            : 'Protect your account with a code from an authenticator app on your phone after your password.'}
        </Text>
        {start.isError && (
          <Alert color="red" role="alert">
            {errorCode(start.error) === 'conflict'
              ? 'An authenticator app is already set up.'
              : errorCode(start.error) === 'invalid-credentials'
                ? 'That password is not right.'
                : errorCode(start.error) === 'account-locked'
                  ? 'Too many failed attempts. Try again in 10 minutes.'
                  : 'Something went wrong. Please try again.'}
          </Alert>
        )}
        <form
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            if (password) start.mutate(password);
          }}
        >
          <Stack gap="xs">
            <PasswordInput
              label="Your password"
              description="Enter it again to set up two-step sign-in."
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={start.isPending}>
                Set up authenticator app
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    );
  }

  return (
    <Stack gap="xs" component="section" aria-labelledby="two-step-heading">
      <Title order={3} size="h5" id="two-step-heading">
        Two-step sign-in
      </Title>
      {body}
    </Stack>
  );
}
