import type { OverwatchGroupSummary } from '@locus/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Group,
  Loader,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { failureMessage } from '../teams/queries';
import { formatDateTime } from '../users/format';
import { ArchiveGroupModal } from './ArchiveGroupModal';
import { closableNotice, useArchiveGroup, useOverwatchGroups } from './queries';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

function GroupRow({
  group,
  onArchive,
  onRestore,
  restoring,
}: {
  group: OverwatchGroupSummary;
  onArchive: (group: OverwatchGroupSummary) => void;
  onRestore: (group: OverwatchGroupSummary) => void;
  restoring: boolean;
}) {
  const archived = group.archivedAt !== null;
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Anchor
            component={Link}
            to={`/admin/overwatch/${group.id}/edit`}
            underline="always"
            style={{ overflowWrap: 'anywhere' }}
          >
            {group.name}
          </Anchor>
          {archived && (
            <Badge variant="filled" color="gray.8">
              Archived
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>{group.teamName}</Table.Td>
      <Table.Td>{group.memberCount}</Table.Td>
      <Table.Td>
        {group.optedOutCount > 0 ? (
          <Badge variant="filled" color="red.9">
            {group.optedOutCount} opted out
          </Badge>
        ) : (
          '0'
        )}
      </Table.Td>
      <Table.Td>{group.geofenceCount}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(group.updatedAt)}</Table.Td>
      <Table.Td>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          {!archived && (
            <Anchor
              component={Link}
              to={`/overwatch?group=${group.id}`}
              size="sm"
              underline="always"
              aria-label={`Open Overwatch with ${group.name}`}
            >
              Open Overwatch
            </Anchor>
          )}
          <Button
            size="xs"
            variant="light"
            component={Link}
            to={`/admin/overwatch/${group.id}/edit`}
            aria-label={`Edit ${group.name}`}
          >
            Edit
          </Button>
          {archived ? (
            <Button
              size="xs"
              variant="default"
              aria-label={`Restore ${group.name}`}
              loading={restoring}
              onClick={() => onRestore(group)}
            >
              Restore
            </Button>
          ) : (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              aria-label={`Archive ${group.name}`}
              onClick={() => onArchive(group)}
            >
              Archive
            </Button>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * /admin/overwatch (issue 14): the Overwatch groups of the premiere-level teams the admin
 * administers, archived ones on request; each is edited, archived (after a confirmation),
 * restored, or opened in Overwatch.
 */
export function OverwatchGroupsPage() {
  const headingId = useId();
  const [showArchived, setShowArchived] = useState(false);
  const [archiving, setArchiving] = useState<OverwatchGroupSummary | null>(null);
  // Here, not in the row: a restored group moves between the two lists, and its row with it.
  const restore = useArchiveGroup();
  const onRestore = (group: OverwatchGroupSummary) =>
    restore.mutate(
      { id: group.id, archive: false },
      {
        onSuccess: () =>
          notifications.show({
            ...closableNotice,
            color: 'teal',
            message: `${group.name} restored`,
          }),
        onError: (error) =>
          notifications.show({
            ...closableNotice,
            color: 'red',
            message: `${group.name} could not be restored: ${failureMessage(error)}`,
          }),
      },
    );
  const active = useOverwatchGroups(false);
  const archived = useOverwatchGroups(true, showArchived);
  // The API answers archived groups or the others; "Show archived" lists both, archived last.
  const loading = active.isPending || (showArchived && archived.isPending);
  const failure = active.error ?? (showArchived ? archived.error : null);
  const shownArchived = showArchived ? archived.data : [];
  const rows =
    active.data && shownArchived && !failure ? [...active.data, ...shownArchived] : undefined;
  return (
    <Container size="lg" py="md">
      <Stack gap="lg">
        <Group justify="space-between">
          <Title order={1} fz={26}>
            Overwatch groups
          </Title>
          <Button
            component={Link}
            to="/admin/overwatch/new/edit"
            leftSection={<IconPlus size={16} aria-hidden />}
          >
            New group
          </Button>
        </Group>
        <Text>
          A group is the numbers Overwatch follows together, the language they are texted in and the
          geofences it watches. A number that texted STOP stays in its group, marked as opted out,
          and is never texted.
        </Text>
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
          <Stack gap="sm">
            <Group justify="space-between">
              <Title order={2} size="h3" id={headingId}>
                Groups
              </Title>
              <Switch
                label="Show archived"
                checked={showArchived}
                onChange={(event) => setShowArchived(event.currentTarget.checked)}
              />
            </Group>
            {loading && <Loader size="sm" aria-label="Loading Overwatch groups" />}
            {failure && (
              <Alert color="red" role="alert">
                The groups could not be loaded: {failureMessage(failure)}
              </Alert>
            )}
            {rows?.length === 0 && (
              <Text>
                {showArchived
                  ? 'No groups, archived or not. Create one with New group.'
                  : 'No groups yet. Create one with New group.'}
              </Text>
            )}
            {rows && rows.length > 0 && (
              <Table.ScrollContainer minWidth={860}>
                <Table striped highlightOnHover verticalSpacing="xs" aria-labelledby={headingId}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Name</Table.Th>
                      <Table.Th>Team</Table.Th>
                      <Table.Th>Numbers</Table.Th>
                      <Table.Th>Opted out</Table.Th>
                      <Table.Th>Geofences</Table.Th>
                      <Table.Th>Last changed</Table.Th>
                      <Table.Th>
                        <VisuallyHidden>Actions</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((group) => (
                      <GroupRow
                        key={group.id}
                        group={group}
                        onArchive={setArchiving}
                        onRestore={onRestore}
                        restoring={restore.isPending && restore.variables.id === group.id}
                      />
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            {rows && rows.length > 0 && (
              <Text size="sm" c="dimmed">
                {plural(rows.length, 'group', 'groups')}
                {showArchived && `, ${archived.data?.length ?? 0} archived`}
              </Text>
            )}
          </Stack>
        </Card>
      </Stack>
      {archiving && <ArchiveGroupModal group={archiving} onClose={() => setArchiving(null)} />}
    </Container>
  );
}
