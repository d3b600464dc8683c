import type { ApiKey } from '@locus/contract';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useId, useRef, useState } from 'react';
import { failureMessage } from '../teams/queries';
import { CreateKeyModal } from './CreateKeyModal';
import { useApiKeys } from './queries';
import { RevokeKeyModal } from './RevokeKeyModal';
import { TeamWebhooks } from './TeamWebhooks';

const day = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleDateString(undefined, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
      })
    : null;

const moment = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString(undefined, {
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      })
    : 'Never';

// The shades the other admin tables use, legible in white at Badge size (WCAG 1.4.3).
const statusColour = { active: 'teal.9', expired: 'gray.8', revoked: 'red.9' } as const;

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: () => void }) {
  return (
    <Table.Tr>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>
        <Text fw={600} size="sm">
          {apiKey.name}
        </Text>
        <Text size="xs" ff="monospace">
          {apiKey.prefix}…
        </Text>
      </Table.Td>
      <Table.Td>
        <Stack gap={2}>
          {apiKey.scopes.map((scope) => (
            <Text key={scope} size="xs" ff="monospace">
              {scope}
            </Text>
          ))}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{day(apiKey.createdAt)}</Text>
        {apiKey.createdBy && <Text size="xs">by {apiKey.createdBy}</Text>}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{moment(apiKey.lastUsedAt)}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{day(apiKey.expiresAt) ?? 'No end'}</Text>
      </Table.Td>
      <Table.Td>
        <Badge variant="filled" color={statusColour[apiKey.status]}>
          {apiKey.status === 'active'
            ? 'Active'
            : apiKey.status === 'expired'
              ? 'Expired'
              : 'Revoked'}
        </Badge>
      </Table.Td>
      <Table.Td>
        {apiKey.status !== 'revoked' && (
          <Button
            size="xs"
            variant="outline"
            color="red.9"
            onClick={onRevoke}
            aria-label={`Revoke ${apiKey.name}`}
          >
            Revoke
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** One enterprise team's partner API keys: the list, Create and Revoke (issue 15). */
export function TeamApiKeys({ teamId, teamName }: { teamId: string; teamName: string }) {
  const headingId = useId();
  const keys = useApiKeys(teamId);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  // Where the focus goes after a revoke: the key's Revoke button is gone with it.
  const createButton = useRef<HTMLButtonElement>(null);
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id={headingId} style={{ overflowWrap: 'anywhere' }}>
            {teamName}
          </Title>
          <Button
            ref={createButton}
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setCreating(true)}
            aria-label={`Create API key for ${teamName}`}
          >
            Create API key
          </Button>
        </Group>
        {keys.isPending ? (
          <Group justify="center" py="md">
            <Loader size="sm" aria-label="Loading API keys" />
          </Group>
        ) : keys.isError ? (
          <Alert color="red" role="alert">
            {failureMessage(keys.error)}
          </Alert>
        ) : keys.data.length === 0 ? (
          <Stack gap="xs" align="center" ta="center" py="md">
            <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
              <IconKey size={26} />
            </ThemeIcon>
            <Text fw={600}>No API keys yet</Text>
            <Text size="sm" maw={520}>
              Create one for each system that should call Locus, such as your CAD. Each key sees
              this team only.
            </Text>
          </Stack>
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing="xs" aria-label={`API keys of ${teamName}`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name and key</Table.Th>
                  <Table.Th>Scopes</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Last used</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {keys.data.map((apiKey) => (
                  <KeyRow key={apiKey.id} apiKey={apiKey} onRevoke={() => setRevoking(apiKey)} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <TeamWebhooks teamId={teamId} teamName={teamName} />
      </Stack>
      {creating && (
        <CreateKeyModal teamId={teamId} teamName={teamName} onClose={() => setCreating(false)} />
      )}
      {revoking && (
        <RevokeKeyModal
          teamId={teamId}
          apiKey={revoking}
          onClose={() => setRevoking(null)}
          returnFocusTo={createButton}
        />
      )}
    </Card>
  );
}
