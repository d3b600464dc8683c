import { maxNumbersPerRequest } from '@locus/contract';
import type { SmsLanguage } from '@locus/machines';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  ScrollArea,
  Stack,
  Text,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, expect } from '../../app/api';
import { modalWidths } from '../../public-site/modal-widths';
import { LanguageRadios } from './LanguageRadios';

/** SPEC.md §9: the call list area is 200 px tall. */
const LIST_HEIGHT = 200;

/**
 * SPEC.md §2 "Tracking Lists": the team's call lists that have numbers, as checkboxes; Send SMS
 * texts every number on the chosen lists a link, in the chosen language.
 */
export function TrackingListsModal({
  opened,
  teamId,
  onSend,
  onCancel,
}: {
  opened: boolean;
  teamId: string | null;
  onSend: (callListIds: string[], language: SmsLanguage) => void;
  onCancel: () => void;
}) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [language, setLanguage] = useState<SmsLanguage>('en');
  useEffect(() => {
    if (opened) {
      setChosen([]);
      setLanguage('en');
    }
  }, [opened]);

  const lists = useQuery({
    queryKey: ['call-lists', 'deployable', teamId],
    queryFn: async () =>
      expect(await api.callLists.deployable({ params: { id: teamId ?? '' } }), 200),
    enabled: opened && teamId !== null,
  });
  const total = (lists.data ?? [])
    .filter((list) => chosen.includes(list.id))
    .reduce((sum, list) => sum + list.numberCount, 0);

  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title="Tracking Lists"
      size={modalWidths.wide}
      closeOnClickOutside={false}
    >
      <Stack gap="md">
        <LanguageRadios value={language} onChange={setLanguage} />
        <ScrollArea
          h={LIST_HEIGHT}
          type="auto"
          style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 4 }}
        >
          <Stack gap={6} p="sm">
            {teamId === null ? (
              <Text size="sm" c="dimmed">
                You are not on a team, so there are no call lists to locate.
              </Text>
            ) : lists.isPending ? (
              <Loader size="sm" aria-label="Loading call lists" />
            ) : lists.isError ? (
              <Alert color="red">The call lists could not be loaded.</Alert>
            ) : lists.data.length === 0 ? (
              <Text size="sm" c="dimmed">
                Your team has no call lists with numbers.
              </Text>
            ) : (
              <Checkbox.Group label="Call lists" value={chosen} onChange={setChosen}>
                <Stack gap={6} mt={6}>
                  {lists.data.map((list) => (
                    <Checkbox
                      key={list.id}
                      value={list.id}
                      label={`${list.callListName} (${list.numberCount} ${list.numberCount === 1 ? 'number' : 'numbers'})`}
                    />
                  ))}
                </Stack>
              </Checkbox.Group>
            )}
          </Stack>
        </ScrollArea>
        {total > maxNumbersPerRequest && (
          <Text size="sm" c="orange.8" role="alert">
            These lists hold {total} numbers; at most {maxNumbersPerRequest} can be texted at once
            (numbers on several lists count once).
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button disabled={chosen.length === 0} onClick={() => onSend(chosen, language)}>
            Send SMS
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
