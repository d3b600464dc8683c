import type { Team } from '@locus/contract';
import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { CallListModal } from './CallListModal';
import { CreateCallListModal, DeleteCallListModal, RenameCallListModal } from './CallListForms';
import { failureMessage, useTeamCallLists } from './queries';

type Dialog =
  { kind: 'create' } | { kind: 'open' | 'rename' | 'delete'; listId: string } | { kind: 'none' };

/** A team's call lists (SPEC.md §7 "Call lists"): list, create, rename, open and delete them. */
export function CallListsPanel({ team }: { team: Team }) {
  const lists = useTeamCallLists(team.id);
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const close = () => setDialog({ kind: 'none' });
  // Read from the query each render, so an open dialog shows the list's current name and count.
  const current =
    dialog.kind === 'open' || dialog.kind === 'rename' || dialog.kind === 'delete'
      ? lists.data?.find((list) => list.id === dialog.listId)
      : undefined;
  const titleId = `call-lists-${team.id}`;

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3" id={titleId}>
            {team.teamName}
          </Title>
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => setDialog({ kind: 'create' })}
          >
            New call list
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Call lists are the numbers your dispatchers can locate together with Locate by List.
        </Text>
        {lists.isPending && (
          <Loader size="sm" aria-label={`Loading call lists of ${team.teamName}`} />
        )}
        {lists.isError && (
          <Alert color="red" role="alert">
            The call lists could not be loaded: {failureMessage(lists.error)}
          </Alert>
        )}
        {lists.data?.length === 0 && <Text>No call lists yet.</Text>}
        {lists.data && lists.data.length > 0 && (
          <Table.ScrollContainer minWidth={520}>
            <Table striped highlightOnHover aria-label={`Call lists of ${team.teamName}`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Numbers</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {lists.data.map((list) => (
                  <Table.Tr key={list.id}>
                    <Table.Td>{list.callListName}</Table.Td>
                    <Table.Td>{list.numberCount}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="light"
                          aria-label={`Open ${list.callListName}`}
                          onClick={() => setDialog({ kind: 'open', listId: list.id })}
                        >
                          Open
                        </Button>
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`Rename ${list.callListName}`}
                          onClick={() => setDialog({ kind: 'rename', listId: list.id })}
                        >
                          Rename
                        </Button>
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          aria-label={`Delete ${list.callListName}`}
                          onClick={() => setDialog({ kind: 'delete', listId: list.id })}
                        >
                          Delete
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <CreateCallListModal team={team} opened={dialog.kind === 'create'} onClose={close} />
      {current && dialog.kind === 'open' && <CallListModal list={current} onClose={close} />}
      {current && dialog.kind === 'rename' && (
        <RenameCallListModal key={current.id} list={current} onClose={close} />
      )}
      {current && dialog.kind === 'delete' && (
        <DeleteCallListModal list={current} onClose={close} />
      )}
    </Card>
  );
}
