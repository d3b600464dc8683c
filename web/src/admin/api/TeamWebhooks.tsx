import type { Webhook } from '@locus/contract';
import { Alert, Badge, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useId, useRef, useState } from 'react';
import { ConfirmModal } from '../ConfirmModal';
import { failureMessage } from '../teams/queries';
import { AddWebhookModal } from './AddWebhookModal';
import { WebhookDeliveries } from './WebhookDeliveries';
import { useRemoveWebhook, useUpdateWebhook, useWebhooks } from './webhook-queries';

function WebhookItem({
  teamId,
  webhook,
  onDelete,
}: {
  teamId: string;
  webhook: Webhook;
  onDelete: () => void;
}) {
  const [open, setOpen] = useState(false);
  const update = useUpdateWebhook(teamId);
  const deliveriesId = useId();
  return (
    <Stack gap={6} p="sm" style={{ border: '1px solid var(--mantine-color-default-border)' }}>
      <Group justify="space-between" wrap="wrap" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Text fw={600} size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {webhook.url}
          </Text>
          {webhook.description && <Text size="sm">{webhook.description}</Text>}
          <Text size="xs" ff="monospace">
            {webhook.events.join(' · ')}
          </Text>
        </Stack>
        <Badge variant="filled" color={webhook.enabled ? 'teal.9' : 'red.9'}>
          {webhook.enabled ? 'On' : 'Turned off'}
        </Badge>
      </Group>
      {webhook.disabledReason && (
        <Text size="sm" c="red.9">
          {webhook.disabledReason}
        </Text>
      )}
      {update.isError && (
        <Alert color="red" role="alert">
          {failureMessage(update.error)}
        </Alert>
      )}
      <Group gap="xs">
        <Button
          size="xs"
          variant="default"
          onClick={() => setOpen((value) => !value)}
          aria-expanded={open}
          aria-controls={deliveriesId}
          aria-label={`Deliveries to ${webhook.url}`}
        >
          Deliveries
        </Button>
        <Button
          size="xs"
          variant="default"
          loading={update.isPending}
          onClick={() => update.mutate({ id: webhook.id, change: { enabled: !webhook.enabled } })}
          aria-label={`${webhook.enabled ? 'Turn off' : 'Turn on'} ${webhook.url}`}
        >
          {webhook.enabled ? 'Turn off' : 'Turn on'}
        </Button>
        <Button
          size="xs"
          variant="outline"
          color="red.9"
          onClick={onDelete}
          aria-label={`Delete ${webhook.url}`}
        >
          Delete
        </Button>
      </Group>
      <div id={deliveriesId}>{open && <WebhookDeliveries teamId={teamId} webhook={webhook} />}</div>
    </Stack>
  );
}

/** One team's webhook endpoints on the API page: add, deliveries with Resend, on/off, delete. */
export function TeamWebhooks({ teamId, teamName }: { teamId: string; teamName: string }) {
  const headingId = useId();
  const webhooks = useWebhooks(teamId);
  const remove = useRemoveWebhook(teamId);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  // Where the focus goes after a delete: the endpoint's Delete button is gone with it.
  const addButton = useRef<HTMLButtonElement>(null);
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" wrap="wrap">
        <Title order={3} size="h5" id={headingId}>
          Webhooks
        </Title>
        <Button
          ref={addButton}
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => setAdding(true)}
          aria-label={`Add endpoint for ${teamName}`}
        >
          Add endpoint
        </Button>
      </Group>
      {webhooks.isPending ? (
        <Group justify="center" py="sm">
          <Loader size="sm" aria-label="Loading webhooks" />
        </Group>
      ) : webhooks.isError ? (
        <Alert color="red" role="alert">
          {failureMessage(webhooks.error)}
        </Alert>
      ) : webhooks.data.length === 0 ? (
        <Text size="sm">
          No webhook endpoints yet. Add one to have Locus tell your system when sessions start and
          end, and each position as it arrives.
        </Text>
      ) : (
        webhooks.data.map((webhook) => (
          <WebhookItem
            key={webhook.id}
            teamId={teamId}
            webhook={webhook}
            onDelete={() => setDeleting(webhook)}
          />
        ))
      )}
      {adding && (
        <AddWebhookModal teamId={teamId} teamName={teamName} onClose={() => setAdding(false)} />
      )}
      {deleting && (
        <ConfirmModal
          title="Delete webhook endpoint"
          confirmLabel="Delete endpoint"
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
          onClose={() => setDeleting(null)}
          pending={remove.isPending}
          error={remove.error}
          returnFocusTo={addButton}
        >
          <Text>
            Delete <strong style={{ overflowWrap: 'anywhere' }}>{deleting.url}</strong> and its
            delivery log? Nothing more is sent to it.
          </Text>
        </ConfirmModal>
      )}
    </Stack>
  );
}
