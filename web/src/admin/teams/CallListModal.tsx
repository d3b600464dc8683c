import { callListLimits, type CallList, type CallListUser } from '@locus/contract';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconTrash, IconUserMinus } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, expect } from '../../app/api';
import { modalWidths } from '../../public-site/modal-widths';
import { parsePhone } from './phone-lines';
import {
  failureMessage,
  useCallListNumbers,
  useCallListUsers,
  useRefreshCallList,
  useTeamUsers,
} from './queries';

const fullName = (user: Pick<CallListUser, 'firstName' | 'lastName'>) =>
  `${user.firstName} ${user.lastName}`;

function Numbers({ list }: { list: CallList }) {
  const numbers = useCallListNumbers(list.id);
  const refresh = useRefreshCallList();
  const [phone, setPhone] = useState('');
  const [label, setLabel] = useState('');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: async (entry: { phoneNumber: string; label: string }) =>
      expect(
        await api.callLists.addNumber({
          params: { id: list.id },
          body: { phoneNumber: entry.phoneNumber, label: entry.label || null },
        }),
        200,
      ),
    onSuccess: async () => {
      setPhone('');
      setLabel('');
      await refresh(list);
    },
  });
  const remove = useMutation({
    mutationFn: async (phoneNumber: string) =>
      expect(
        await api.callLists.removeNumbers({
          params: { id: list.id },
          body: { phoneNumbers: [phoneNumber] },
        }),
        200,
      ),
    onSuccess: () => refresh(list),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const phoneNumber = parsePhone(phone);
    if (phoneNumber === null) {
      setPhoneError('Please use a valid Phone Number');
      return;
    }
    setPhoneError(null);
    if (!add.isPending) add.mutate({ phoneNumber, label: label.trim() });
  }

  return (
    <Stack gap="xs" component="section" aria-labelledby="call-list-numbers-title">
      <Title order={3} size="h5" id="call-list-numbers-title">
        Numbers
      </Title>
      {numbers.isPending && <Loader size="sm" aria-label="Loading numbers" />}
      {numbers.isError && (
        <Alert color="red" role="alert">
          {failureMessage(numbers.error)}
        </Alert>
      )}
      {numbers.data?.length === 0 && <Text c="dimmed">No numbers on this list yet.</Text>}
      {numbers.data && numbers.data.length > 0 && (
        <Table.ScrollContainer minWidth={360} maxHeight={300}>
          <Table striped aria-label={`Numbers on ${list.callListName}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Number</Table.Th>
                <Table.Th>Label</Table.Th>
                <Table.Th w={48}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {numbers.data.map((entry) => (
                <Table.Tr key={entry.phoneNumber}>
                  <Table.Td>{entry.phoneNumber}</Table.Td>
                  <Table.Td>{entry.label ?? '—'}</Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove ${entry.phoneNumber}`}
                      loading={remove.isPending && remove.variables === entry.phoneNumber}
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(entry.phoneNumber)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {remove.isError && (
        <Alert color="red" role="alert">
          {failureMessage(remove.error)}
        </Alert>
      )}
      <form noValidate onSubmit={submit} aria-label="Add a number">
        <Group align="flex-start" gap="xs">
          <TextInput
            label="Phone number"
            type="tel"
            placeholder="+1 202 555 0123"
            value={phone}
            onChange={(event) => setPhone(event.currentTarget.value)}
            error={phoneError}
            style={{ flex: 1 }}
          />
          <TextInput
            label="Label"
            placeholder="Optional"
            value={label}
            maxLength={callListLimits.labelMaxLength}
            onChange={(event) => setLabel(event.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button type="submit" mt={25} loading={add.isPending}>
            Add number
          </Button>
        </Group>
      </form>
      {add.isError && (
        <Alert color="red" role="alert">
          {failureMessage(add.error)}
        </Alert>
      )}
    </Stack>
  );
}

function Users({ list }: { list: CallList }) {
  const users = useCallListUsers(list.id);
  const teamUsers = useTeamUsers(list.teamId);
  const refresh = useRefreshCallList();
  const [chosen, setChosen] = useState<string | null>(null);
  const attach = useMutation({
    mutationFn: async (userId: string) =>
      expect(await api.callLists.addUsers({ params: { a: list.id, b: userId } }), 200),
    onSuccess: async () => {
      setChosen(null);
      await refresh(list);
    },
  });
  const detach = useMutation({
    mutationFn: async (userId: string) =>
      expect(
        await api.callLists.removeUsers({ params: { id: list.id }, body: { userIds: [userId] } }),
        200,
      ),
    onSuccess: () => refresh(list),
  });
  const attachedIds = new Set(users.data?.map((user) => user.id));
  const options = (teamUsers.data ?? [])
    .filter((user) => !attachedIds.has(user.id))
    .map((user) => ({ value: user.id, label: `${fullName(user)} (${user.email})` }));

  return (
    <Stack gap="xs" component="section" aria-labelledby="call-list-users-title">
      <Title order={3} size="h5" id="call-list-users-title">
        Team users
      </Title>
      <Text size="sm" c="dimmed">
        An attached user’s own phone number is located with the list.
      </Text>
      {users.isPending && <Loader size="sm" aria-label="Loading users" />}
      {users.isError && (
        <Alert color="red" role="alert">
          {failureMessage(users.error)}
        </Alert>
      )}
      {users.data?.length === 0 && <Text c="dimmed">No users attached.</Text>}
      {users.data && users.data.length > 0 && (
        <Stack gap={4} component="ul" aria-label="Attached users" p={0} m={0}>
          {users.data.map((user) => (
            <Group key={user.id} component="li" justify="space-between" wrap="nowrap">
              <Text size="sm">
                {fullName(user)}{' '}
                <Text span size="sm" c="dimmed">
                  {user.phoneNumber ?? 'no phone number'}
                </Text>
              </Text>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Detach ${fullName(user)}`}
                loading={detach.isPending && detach.variables === user.id}
                disabled={detach.isPending}
                onClick={() => detach.mutate(user.id)}
              >
                <IconUserMinus size={16} />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}
      {detach.isError && (
        <Alert color="red" role="alert">
          {failureMessage(detach.error)}
        </Alert>
      )}
      <Group align="flex-end" gap="xs">
        <Select
          label="Team user"
          placeholder={teamUsers.isPending ? 'Loading…' : 'Choose a user'}
          data={options}
          value={chosen}
          onChange={setChosen}
          searchable
          nothingFoundMessage="No other users on this team"
          // At most 8 options and room for them all: a dropdown that scrolls is a region the
          // keyboard cannot reach (axe scrollable-region-focusable); typing finds the others.
          limit={8}
          maxDropdownHeight={400}
          description={options.length > 8 ? 'Type a name to find others.' : undefined}
          style={{ flex: 1 }}
        />
        <Button
          variant="light"
          disabled={chosen === null}
          loading={attach.isPending}
          onClick={() => chosen !== null && attach.mutate(chosen)}
        >
          Attach user
        </Button>
      </Group>
      {(attach.isError || teamUsers.isError) && (
        <Alert color="red" role="alert">
          {failureMessage(attach.error ?? teamUsers.error)}
        </Alert>
      )}
    </Stack>
  );
}

/** One call list: its numbers and attached team users, each added and removed in place. */
export function CallListModal({ list, onClose }: { list: CallList; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={list.callListName} size={modalWidths.wide}>
      <Stack gap="lg">
        <Numbers list={list} />
        <Users list={list} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
