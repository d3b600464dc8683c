import { callListLimits, type CallList, type Team } from '@locus/contract';
import {
  Alert,
  Button,
  Group,
  List,
  Modal,
  ScrollArea,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, expect } from '../../app/api';
import { modalWidths } from '../../public-site/modal-widths';
import { parsePhoneLines } from './phone-lines';
import { failureMessage, useRefreshCallList } from './queries';

/** A notice's close button is an icon alone: it needs a name (WCAG 4.1.2). */
const closableNotice = { closeButtonProps: { 'aria-label': 'Close notice' } };

function nameError(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'Enter a name for the list';
  if (trimmed.length > callListLimits.nameMaxLength)
    return `At most ${callListLimits.nameMaxLength} characters`;
  return null;
}

/** New call list: a name and numbers pasted one per line. Invalid lines are shown, never sent. */
export function CreateCallListModal({
  team,
  opened,
  onClose,
}: {
  team: Team;
  opened: boolean;
  onClose: () => void;
}) {
  const [name, setName] = useState('');
  const [numbersText, setNumbersText] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const refresh = useRefreshCallList();
  const parsed = parsePhoneLines(numbersText);
  const invalid = parsed.lines.filter((line) => line.phoneNumber === null);
  const tooMany = parsed.numbers.length > callListLimits.numbersPerCreate;
  const create = useMutation({
    mutationFn: async () =>
      expect(
        await api.callLists.create({
          params: { id: team.id },
          body: { callListName: name.trim(), phoneNumbers: parsed.numbers },
        }),
        201,
      ),
    onSuccess: async (list) => {
      notifications.show({
        ...closableNotice,
        color: 'green',
        message: `Call list ${list.callListName} created`,
      });
      await refresh(list);
      close();
    },
  });

  function close() {
    setName('');
    setNumbersText('');
    setSubmitted(false);
    create.reset();
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (nameError(name) !== null || tooMany || create.isPending) return;
    create.mutate();
  }

  return (
    <Modal opened={opened} onClose={close} title="New call list" size={modalWidths.wide}>
      <form noValidate onSubmit={submit}>
        <Stack>
          <Text size="sm" c="dimmed">
            For {team.teamName}
          </Text>
          <TextInput
            label="List name"
            withAsterisk
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={submitted ? nameError(name) : null}
            maxLength={callListLimits.nameMaxLength + 20}
            data-autofocus
          />
          <Textarea
            label="Phone numbers"
            description="One per line. Numbers without a leading + get +1."
            autosize
            minRows={4}
            maxRows={10}
            value={numbersText}
            onChange={(event) => setNumbersText(event.currentTarget.value)}
            error={
              tooMany
                ? `At most ${callListLimits.numbersPerCreate} numbers at once`
                : invalid.length > 0
                  ? `${invalid.length} invalid ${invalid.length === 1 ? 'line' : 'lines'} will not be added`
                  : null
            }
          />
          {parsed.lines.length > 0 && (
            <ScrollArea.Autosize mah={200}>
              <List size="sm" spacing={2} aria-label="Numbers to add">
                {parsed.lines.map((line, index) => (
                  <List.Item key={`${index}-${line.input}`}>
                    {line.phoneNumber === null ? (
                      <Text span size="sm" c="var(--mantine-color-error)">
                        {line.input}: not a valid phone number
                      </Text>
                    ) : (
                      <Text span size="sm">
                        {line.phoneNumber}
                      </Text>
                    )}
                  </List.Item>
                ))}
              </List>
            </ScrollArea.Autosize>
          )}
          <Text size="sm" role="status">
            {parsed.numbers.length === 1 ? '1 number' : `${parsed.numbers.length} numbers`} will be
            added.
          </Text>
          {create.isError && (
            <Alert color="red" role="alert">
              {failureMessage(create.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create list
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function RenameCallListModal({ list, onClose }: { list: CallList; onClose: () => void }) {
  const [name, setName] = useState(list.callListName);
  const [submitted, setSubmitted] = useState(false);
  const refresh = useRefreshCallList();
  const rename = useMutation({
    mutationFn: async () =>
      expect(
        await api.callLists.rename({
          params: { id: list.id },
          body: { callListName: name.trim() },
        }),
        200,
      ),
    onSuccess: async (renamed) => {
      notifications.show({
        ...closableNotice,
        color: 'green',
        message: `Renamed to ${renamed.callListName}`,
      });
      await refresh(renamed);
      onClose();
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (nameError(name) !== null || rename.isPending) return;
    rename.mutate();
  }

  return (
    <Modal opened onClose={onClose} title="Rename call list" size={modalWidths.narrow}>
      <form noValidate onSubmit={submit}>
        <Stack>
          <TextInput
            label="List name"
            withAsterisk
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={submitted ? nameError(name) : null}
            data-autofocus
          />
          {rename.isError && (
            <Alert color="red" role="alert">
              {failureMessage(rename.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={rename.isPending}>
              Save name
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function DeleteCallListModal({ list, onClose }: { list: CallList; onClose: () => void }) {
  const refresh = useRefreshCallList();
  const remove = useMutation({
    mutationFn: async () => expect(await api.callLists.remove({ params: { id: list.id } }), 200),
    onSuccess: async () => {
      notifications.show({
        ...closableNotice,
        color: 'gray',
        message: `Call list ${list.callListName} deleted`,
      });
      await refresh(list);
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} title="Delete call list" size={modalWidths.narrow}>
      <Stack>
        <Text>
          Delete <strong>{list.callListName}</strong> and its{' '}
          {list.numberCount === 1 ? '1 number' : `${list.numberCount} numbers`}? This cannot be
          undone.
        </Text>
        {remove.isError && (
          <Alert color="red" role="alert">
            {failureMessage(remove.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
            Delete list
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
