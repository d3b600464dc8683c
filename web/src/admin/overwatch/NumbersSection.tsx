import { overwatchLimits } from '@locus/contract';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type KeyboardEvent } from 'react';
import { parsePhone } from '../teams/phone-lines';
import { failureMessage, useTeamCallLists } from '../teams/queries';
import type { MemberDraft } from './form-model';
import { callListNumbers, closableNotice } from './queries';

/** Adds entries not yet in the group, in order; answers the new list and how many were added. */
function merge(
  members: MemberDraft[],
  entries: { phoneNumber: string; label: string | null }[],
): { members: MemberDraft[]; added: number } {
  const known = new Set(members.map((member) => member.phoneNumber));
  const next = [...members];
  for (const entry of entries) {
    if (known.has(entry.phoneNumber)) continue;
    known.add(entry.phoneNumber);
    next.push({ phoneNumber: entry.phoneNumber, label: entry.label, optedOut: false });
  }
  return { members: next, added: next.length - members.length };
}

function FromCallList({
  teamId,
  members,
  onChange,
}: {
  teamId: string;
  members: MemberDraft[];
  onChange: (members: MemberDraft[]) => void;
}) {
  const lists = useTeamCallLists(teamId);
  const [chosen, setChosen] = useState<string | null>(null);
  const copy = useMutation({
    mutationFn: (listId: string) => callListNumbers(listId),
    onSuccess: (entries, listId) => {
      const name = lists.data?.find((list) => list.id === listId)?.callListName ?? 'the list';
      const { members: next, added } = merge(members, entries);
      onChange(next.slice(0, overwatchLimits.numbersPerGroup));
      const skipped = entries.length - added;
      notifications.show({
        ...closableNotice,
        color: 'teal',
        message:
          `${added === 1 ? '1 number' : `${added} numbers`} added from ${name}` +
          (skipped > 0 ? ` (${skipped} already in the group)` : ''),
      });
      setChosen(null);
    },
  });
  const options = (lists.data ?? []).map((list) => ({
    value: list.id,
    label: `${list.callListName} (${list.numberCount === 1 ? '1 number' : `${list.numberCount} numbers`})`,
  }));
  return (
    <Stack gap={4}>
      <Group align="flex-end" gap="xs">
        <Select
          label="Call list"
          placeholder={
            lists.isPending ? 'Loading…' : options.length === 0 ? 'No call lists' : 'Choose a list'
          }
          data={options}
          value={chosen}
          onChange={setChosen}
          disabled={options.length === 0}
          limit={8}
          maxDropdownHeight={400}
          style={{ flex: 1 }}
          maw={420}
        />
        <Button
          variant="light"
          disabled={chosen === null}
          loading={copy.isPending}
          onClick={() => chosen !== null && copy.mutate(chosen)}
        >
          Add from call list
        </Button>
      </Group>
      {(lists.isError || copy.isError) && (
        <Alert color="red" role="alert">
          {failureMessage(lists.error ?? copy.error)}
        </Alert>
      )}
    </Stack>
  );
}

/**
 * The numbers a group follows: typed (Enter adds) with an optional label, or copied from one of
 * the team's call lists. A number that texted STOP stays listed, marked, and is never texted.
 */
export function NumbersSection({
  teamId,
  members,
  onChange,
  error,
}: {
  teamId: string | undefined;
  members: MemberDraft[];
  onChange: (members: MemberDraft[]) => void;
  error?: string;
}) {
  const headingId = useId();
  const [phone, setPhone] = useState('');
  const [label, setLabel] = useState('');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const full = members.length >= overwatchLimits.numbersPerGroup;
  const optedOut = members.filter((member) => member.optedOut).length;

  function add() {
    const phoneNumber = parsePhone(phone);
    if (phoneNumber === null) {
      setPhoneError('Please use a valid Phone Number');
      return;
    }
    if (members.some((member) => member.phoneNumber === phoneNumber)) {
      setPhoneError(`${phoneNumber} is already in the group`);
      return;
    }
    if (full) {
      setPhoneError(`A group follows at most ${overwatchLimits.numbersPerGroup} numbers`);
      return;
    }
    setPhoneError(null);
    onChange(merge(members, [{ phoneNumber, label: label.trim() || null }]).members);
    setPhone('');
    setLabel('');
  }
  const onEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    // Enter adds the number; it must not submit the whole group.
    event.preventDefault();
    add();
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId}>
        Numbers
      </Title>
      <Text size="sm" c="dimmed">
        Type a number and press Enter, or add every number of a call list. Numbers without a leading
        + are taken as +1. At most {overwatchLimits.numbersPerGroup}.
      </Text>
      <Group align="flex-start" gap="xs">
        <TextInput
          label="Phone number"
          type="tel"
          placeholder="+1 202 555 0123"
          value={phone}
          onChange={(event) => {
            setPhone(event.currentTarget.value);
            setPhoneError(null);
          }}
          onKeyDown={onEnter}
          error={phoneError}
          style={{ flex: 1 }}
          miw={200}
        />
        <TextInput
          label="Label"
          placeholder="Optional"
          value={label}
          maxLength={overwatchLimits.labelMaxLength}
          onChange={(event) => setLabel(event.currentTarget.value)}
          onKeyDown={onEnter}
          style={{ flex: 1 }}
          miw={160}
        />
        <Button
          variant="light"
          mt={25}
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={add}
        >
          Add number
        </Button>
      </Group>
      {teamId !== undefined && (
        <FromCallList teamId={teamId} members={members} onChange={onChange} />
      )}
      {error && (
        <Text size="sm" c="red.8" role="alert">
          {error}
        </Text>
      )}
      {members.length === 0 ? (
        <Text>No numbers yet.</Text>
      ) : (
        <>
          <Text size="sm" aria-live="polite">
            {members.length === 1 ? '1 number' : `${members.length} numbers`}
            {optedOut > 0 && `, ${optedOut} opted out`}
          </Text>
          <Table.ScrollContainer minWidth={420} maxHeight={300}>
            <Table striped aria-labelledby={headingId}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Number</Table.Th>
                  <Table.Th>Label</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th w={48}>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {members.map((member) => (
                  <Table.Tr key={member.phoneNumber}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{member.phoneNumber}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{member.label ?? '—'}</Table.Td>
                    <Table.Td>
                      {member.optedOut ? (
                        <Badge variant="filled" color="red.9" tt="none">
                          Opted out (STOP): never texted
                        </Badge>
                      ) : (
                        <Text size="sm" span>
                          Active
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Remove ${member.phoneNumber}`}
                        onClick={() =>
                          onChange(
                            members.filter((other) => other.phoneNumber !== member.phoneNumber),
                          )
                        }
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </Stack>
  );
}
