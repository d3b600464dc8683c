import type { Webhook, WebhookDelivery } from '@locus/contract';
import { Alert, Badge, Button, Loader, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import { failureMessage } from '../teams/queries';
import { useDeliveries, useResendDelivery } from './webhook-queries';

const moment = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

// Legible in white at Badge size (WCAG 1.4.3), as the keys table's.
const statusBadge = {
  delivered: { colour: 'teal.9', text: 'Delivered' },
  pending: { colour: 'navy.7', text: 'Pending' },
  failed: { colour: 'red.9', text: 'Failed' },
} as const;

/** Each attempt's answer, oldest first: "500, 503, 204" or "no answer in time". */
function attemptsText(delivery: WebhookDelivery): string {
  if (delivery.attempts.length === 0) return 'Not sent yet';
  return delivery.attempts
    .map((attempt) => (attempt.statusCode === null ? attempt.error : String(attempt.statusCode)))
    .join(', ');
}

/** An endpoint's newest deliveries, each attempt's answer, and Resend (issue 15). */
export function WebhookDeliveries({ teamId, webhook }: { teamId: string; webhook: Webhook }) {
  const deliveries = useDeliveries(teamId, webhook.id);
  const resend = useResendDelivery(teamId, webhook.id);
  if (deliveries.isPending)
    return (
      <Group justify="center" py="sm">
        <Loader size="sm" aria-label="Loading deliveries" />
      </Group>
    );
  if (deliveries.isError)
    return (
      <Alert color="red" role="alert">
        {failureMessage(deliveries.error)}
      </Alert>
    );
  if (deliveries.data.length === 0)
    return (
      <Text size="sm" py="xs">
        No deliveries yet. They appear here as the team’s events happen.
      </Text>
    );
  return (
    <>
      {resend.isError && (
        <Alert color="red" role="alert">
          {failureMessage(resend.error)}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing={4} aria-label={`Deliveries to ${webhook.url}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Event</Table.Th>
              <Table.Th>Happened</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Answers, per attempt</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {deliveries.data.map((delivery) => (
              <Table.Tr key={delivery.id}>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {delivery.event}
                  </Text>
                  <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {delivery.id}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{moment(delivery.createdAt)}</Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="filled" color={statusBadge[delivery.status].colour}>
                    {statusBadge[delivery.status].text}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{attemptsText(delivery)}</Text>
                  {delivery.nextAttemptAt && delivery.attempts.length > 0 && (
                    <Text size="xs">Next attempt {moment(delivery.nextAttemptAt)}</Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="outline"
                    onClick={() => resend.mutate(delivery.id)}
                    loading={resend.isPending && resend.variables === delivery.id}
                    aria-label={`Resend ${delivery.event} ${delivery.id}`}
                  >
                    Resend
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
