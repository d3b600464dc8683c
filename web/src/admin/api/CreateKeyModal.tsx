import {
  apiKeyLimits,
  apiKeyScopeDescriptions,
  apiKeyScopes,
  type ApiKeyScope,
  type CreatedApiKey,
} from '@locus/contract';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { failureMessage } from '../teams/queries';
import { useCreateApiKey } from './queries';
import { CodeChoices } from './CodeChoices';
import { SecretOnceModal } from './SecretOnceModal';

/** The end of the chosen day in the admin's time zone, as the API wants it. */
function endOfDay(date: string): string {
  return new Date(`${date}T23:59:59`).toISOString();
}

/** Today in the admin's own time zone, as a date input's value (not UTC's date). */
function today(): string {
  const now = new Date();
  const two = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

/**
 * Creating a key: a name, its scopes and an optional last day; then the key itself, shown once
 * with a Copy button. Closing that view forgets it: Locus keeps only its hash.
 */
export function CreateKeyModal({
  teamId,
  teamName,
  onClose,
}: {
  teamId: string;
  teamName: string;
  onClose: () => void;
}) {
  const create = useCreateApiKey(teamId);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['sessions:read']);
  const [expires, setExpires] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [tried, setTried] = useState(false);

  const nameError = tried && name.trim() === '' ? 'Give the key a name' : null;
  const scopeError = tried && scopes.length === 0 ? 'Choose at least one scope' : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (name.trim() === '' || scopes.length === 0) return;
    create.mutate(
      { name: name.trim(), scopes, expiresAt: expires ? endOfDay(expires) : null },
      { onSuccess: setCreated },
    );
  };

  return (
    <SecretOnceModal
      formTitle="Create API key"
      shownTitle="Your new API key"
      shown={
        created && {
          title: 'Copy this key now',
          copyLabel: 'Copy key',
          label: `${created.key.name} (${teamName})`,
          secret: created.secret,
          note: 'This is the only time Locus shows it. Store it in your system’s secret store; if it is lost, revoke it and create another.',
          extra: (
            <Text size="sm">
              Key id, for OAuth’s <code>client_id</code>: <code>{created.key.id}</code>
            </Text>
          ),
        }
      }
      onClose={onClose}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Name"
            description="What uses it, e.g. the CAD system"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            maxLength={apiKeyLimits.nameMaxLength}
            error={nameError}
            required
            data-autofocus
          />
          <CodeChoices
            label="Scopes"
            description="What the key may do"
            codes={apiKeyScopes}
            explain={apiKeyScopeDescriptions}
            value={scopes}
            onChange={setScopes}
            error={scopeError}
          />
          <TextInput
            type="date"
            label="Last day (optional)"
            description="The key stops working at the end of this day. Leave empty for no end."
            value={expires}
            min={today()}
            onChange={(event) => setExpires(event.currentTarget.value)}
          />
          {create.isError && (
            <Alert color="red" role="alert">
              {failureMessage(create.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create key
            </Button>
          </Group>
        </Stack>
      </form>
    </SecretOnceModal>
  );
}
