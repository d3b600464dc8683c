import type { Passkey } from '@locus/contract';
import {
  Alert,
  Button,
  Group,
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
import { mfaStatusQueryKey } from '../mfa/TwoStepSection';
import { PasskeyCeremonyError } from './ceremony-error';

export const passkeysQueryKey = ['passkeys'] as const;

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const when = (iso: string) => dateFormat.format(new Date(iso));

function addRefusal(error: unknown): string {
  if (error instanceof PasskeyCeremonyError)
    return 'No passkey was created. Try again when your device or security key is ready.';
  switch (errorCode(error)) {
    case 'conflict':
      return error instanceof Error ? error.message : 'This passkey cannot be added.';
    case 'validation-failed':
      return 'The passkey could not be added. Try again.';
    case 'invalid-credentials':
      return 'That password is not right.';
    case 'account-locked':
      return 'Too many failed attempts. Try again in 10 minutes.';
    default:
      return 'Something went wrong. Please try again.';
  }
}

/**
 * Naming the new passkey and the current password (a session left open somewhere cannot add its
 * own key), then the browser's own dialog creates it.
 */
function AddPasskeyForm({ onAdded, onCancel }: { onAdded(): void; onCancel(): void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [passwordMissing, setPasswordMissing] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  const add = useMutation({
    mutationFn: async ({ passkeyName, current }: { passkeyName: string; current: string }) => {
      const { addPasskey } = await import('./ceremony');
      return addPasskey(passkeyName, current);
    },
    onSuccess: () => {
      setPassword('');
      onAdded();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    setInvalid(trimmed === '');
    setPasswordMissing(password === '');
    if (trimmed !== '' && password !== '' && !add.isPending)
      add.mutate({ passkeyName: trimmed, current: password });
  };
  return (
    <form noValidate onSubmit={submit}>
      <Stack gap="xs">
        <TextInput
          ref={field}
          label="Passkey name"
          description="So you can tell your passkeys apart, for example “Work laptop” or “Blue key”."
          withAsterisk
          maxLength={64}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={invalid ? 'Required' : undefined}
        />
        <PasswordInput
          label="Your password"
          description="Enter it again to add a passkey."
          autoComplete="current-password"
          withAsterisk
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          error={passwordMissing ? 'Required' : undefined}
        />
        {add.isError && (
          <Alert color="red" role="alert">
            {addRefusal(add.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={add.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending} disabled={add.isPending}>
            Create passkey
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** One passkey, with "Remove" (asked twice: it may be the way this user signs in). */
function PasskeyItem({ passkey, onRemoved }: { passkey: Passkey; onRemoved(): void }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: async () => expect(await api.passkeys.remove({ params: { id: passkey.id } }), 204),
    onSuccess: onRemoved,
  });
  return (
    <List.Item>
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap">
          <Stack gap={0}>
            <Text size="sm" fw={600}>
              {passkey.name}
            </Text>
            <Text size="xs" c="dimmed">
              Added {when(passkey.createdAt)}
              {passkey.lastUsedAt ? ` · last used ${when(passkey.lastUsedAt)}` : ' · not used yet'}
            </Text>
          </Stack>
          {confirming ? (
            <Group gap="xs" wrap="nowrap">
              <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
                Keep
              </Button>
              <Button
                size="xs"
                color="red"
                loading={remove.isPending}
                onClick={() => remove.mutate()}
                aria-label={`Yes, remove ${passkey.name}`}
              >
                Yes, remove
              </Button>
            </Group>
          ) : (
            <Button
              size="xs"
              variant="default"
              onClick={() => setConfirming(true)}
              aria-label={`Remove ${passkey.name}`}
            >
              Remove
            </Button>
          )}
        </Group>
        {confirming && !remove.isError && (
          <Text size="xs">Remove this passkey? You will no longer be able to sign in with it.</Text>
        )}
        {remove.isError && (
          <Alert color="red" role="alert">
            {errorCode(remove.error) === 'conflict' && remove.error instanceof Error
              ? remove.error.message
              : 'Something went wrong. Please try again.'}
          </Alert>
        )}
      </Stack>
    </List.Item>
  );
}

/**
 * The profile's passkeys (CJIS advanced authentication): a passkey on this device or a security
 * key as the second step of sign-in, besides or instead of an authenticator app.
 */
export function PasskeysSection() {
  const queryClient = useQueryClient();
  const passkeys = useQuery({
    queryKey: passkeysQueryKey,
    queryFn: async () => expect(await api.passkeys.list(), 200),
  });
  const [adding, setAdding] = useState(false);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: passkeysQueryKey });
    await queryClient.invalidateQueries({ queryKey: mfaStatusQueryKey });
    await reloadCurrentUser();
  };

  let body;
  if (passkeys.isPending) {
    body = <Text size="sm">Loading…</Text>;
  } else if (passkeys.isError) {
    body = (
      <Alert color="red" role="alert">
        Your passkeys could not be loaded.
      </Alert>
    );
  } else {
    body = (
      <Stack gap="xs">
        {passkeys.data.length === 0 ? (
          <Text size="sm">
            Sign in with a passkey on this device (fingerprint, face or PIN) or a security key after
            your password, instead of a code.
          </Text>
        ) : (
          <List aria-label="Your passkeys" listStyleType="none" spacing="xs">
            {passkeys.data.map((passkey) => (
              <PasskeyItem key={passkey.id} passkey={passkey} onRemoved={() => void refresh()} />
            ))}
          </List>
        )}
        {adding ? (
          <AddPasskeyForm
            onAdded={() => {
              setAdding(false);
              void refresh();
            }}
            onCancel={() => setAdding(false)}
          />
        ) : (
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAdding(true)}>
              Add a passkey
            </Button>
          </Group>
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="xs" component="section" aria-labelledby="passkeys-heading">
      <Title order={3} size="h5" id="passkeys-heading">
        Passkeys
      </Title>
      {body}
    </Stack>
  );
}
