import {
  webhookEventDescriptions,
  webhookEvents,
  webhookLimits,
  type CreatedWebhook,
  type WebhookEvent,
} from '@locus/contract';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { failureMessage } from '../teams/queries';
import { CodeChoices } from './CodeChoices';
import { SecretOnceModal } from './SecretOnceModal';
import { useCreateWebhook } from './webhook-queries';

/** Adding an endpoint: its https address, the events it receives, a note; then its secret. */
export function AddWebhookModal({
  teamId,
  teamName,
  onClose,
}: {
  teamId: string;
  teamName: string;
  onClose: () => void;
}) {
  const create = useCreateWebhook(teamId);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['session.started', 'location.created']);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [tried, setTried] = useState(false);

  // The address is checked fully by the API; this catches what was not an address at all.
  const urlValid = /^https?:\/\/\S+$/i.test(url.trim());
  const urlError = tried && !urlValid ? 'Enter an https:// address' : null;
  const eventsError = tried && events.length === 0 ? 'Choose at least one event' : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!urlValid || events.length === 0) return;
    create.mutate(
      { url: url.trim(), events, description: description.trim() || null },
      { onSuccess: setCreated },
    );
  };

  return (
    <SecretOnceModal
      formTitle="Add webhook endpoint"
      shownTitle="Your endpoint’s signing secret"
      shown={
        created && {
          title: 'Copy this secret now',
          copyLabel: 'Copy secret',
          label: `Signing secret for ${created.webhook.url} (${teamName})`,
          secret: created.secret,
          note: (
            <>
              Verify every delivery with it (Standard Webhooks; <code>verifyWebhook</code> in the
              client package). This is the only time Locus shows it.
            </>
          ),
        }
      }
      onClose={onClose}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Address"
            description="Where Locus POSTs the events: an https:// address of your system"
            placeholder="https://cad.example.org/locus-events"
            value={url}
            onChange={(event) => setUrl(event.currentTarget.value)}
            maxLength={webhookLimits.urlMaxLength}
            error={urlError}
            required
            data-autofocus
          />
          <CodeChoices
            label="Events"
            description="What this endpoint receives"
            codes={webhookEvents}
            explain={webhookEventDescriptions}
            value={events}
            onChange={setEvents}
            error={eventsError}
          />
          <TextInput
            label="Note (optional)"
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            maxLength={webhookLimits.descriptionMaxLength}
          />
          {create.isError && (
            <Alert color="red" role="alert">
              {failureMessage(create.error)}
            </Alert>
          )}
          <Text size="sm">
            Failed deliveries are retried for about a day; an endpoint that fails them all is turned
            off until you turn it on again.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Add endpoint
            </Button>
          </Group>
        </Stack>
      </form>
    </SecretOnceModal>
  );
}
