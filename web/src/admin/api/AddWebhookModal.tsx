import {
  webhookEventDescriptions,
  webhookEvents,
  webhookLimits,
  type CreatedWebhook,
  type WebhookEvent,
} from '@locus/contract';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { modalWidths } from '../../public-site/modal-widths';
import { failureMessage } from '../teams/queries';
import { CodeChoices } from './CodeChoices';
import { ShownSecret } from './ShownSecret';
import { useCreateWebhook } from './webhook-queries';

/**
 * Adding an endpoint: its https address, the events it receives, a note; then its signing
 * secret, shown once in the same dialog (Escape and outside clicks no longer close it).
 */
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
  const done = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (created) done.current?.focus();
  }, [created]);

  const urlError =
    tried && !/^https?:\/\/\S+$/i.test(url.trim()) ? 'Enter an https:// address' : null;
  const eventsError = tried && events.length === 0 ? 'Choose at least one event' : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!/^https?:\/\/\S+$/i.test(url.trim()) || events.length === 0) return;
    create.mutate(
      { url: url.trim(), events, description: description.trim() || null },
      { onSuccess: setCreated },
    );
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={created ? 'Your endpoint’s signing secret' : 'Add webhook endpoint'}
      size={modalWidths.wide}
      closeOnClickOutside={!created}
      closeOnEscape={!created}
    >
      {created ? (
        <ShownSecret
          title="Copy this secret now"
          copyLabel="Copy secret"
          label={`Signing secret for ${created.webhook.url} (${teamName})`}
          secret={created.secret}
          done={done}
          onClose={onClose}
        >
          Verify every delivery with it (Standard Webhooks; <code>verifyWebhook</code> in the client
          package). This is the only time Locus shows it.
        </ShownSecret>
      ) : (
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
              Failed deliveries are retried for about a day; an endpoint that fails them all is
              turned off until you turn it on again.
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
      )}
    </Modal>
  );
}
