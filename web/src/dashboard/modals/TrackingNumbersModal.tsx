import { maxNumbersPerRequest } from '@locus/contract';
import type { SmsLanguage } from '@locus/machines';
import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Group,
  Modal,
  ScrollArea,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { modalWidths } from '../../public-site/modal-widths';
import { phoneToLocate } from '../HeaderControls';
import { LanguageRadios } from './LanguageRadios';

/** SPEC.md §9: the number list area is 300 px tall. */
const LIST_HEIGHT = 300;

interface TypedNumber {
  /** E.164 when valid, else what was typed (with the default prefix). */
  number: string;
  valid: boolean;
}

/** A typed number with +1 prepended when it has no leading + (SPEC.md §5), checked and normalised. */
export function typedNumber(input: string): TypedNumber | null {
  const trimmed = input.trim();
  if (trimmed === '') return null;
  const e164 = phoneToLocate(trimmed);
  if (e164 !== null) return { number: e164, valid: true };
  return { number: trimmed.startsWith('+') ? trimmed : `+1${trimmed}`, valid: false };
}

/**
 * SPEC.md §2 "Tracking Numbers": type a number and press Enter to add it to the list, pick the
 * text's language, and Send SMS texts every valid number a link. Invalid numbers stay in the
 * list, flagged, and are not sent.
 */
export function TrackingNumbersModal({
  opened,
  sending = false,
  onSend,
  onCancel,
}: {
  opened: boolean;
  sending?: boolean;
  onSend: (phoneNumbers: string[], language: SmsLanguage) => void;
  onCancel: () => void;
}) {
  const [input, setInput] = useState('');
  const [numbers, setNumbers] = useState<TypedNumber[]>([]);
  const [language, setLanguage] = useState<SmsLanguage>('en');
  // Closing a modal clears its fields (SPEC.md §4).
  useEffect(() => {
    if (opened) {
      setInput('');
      setNumbers([]);
      setLanguage('en');
    }
  }, [opened]);

  const add = () => {
    const typed = typedNumber(input);
    if (!typed) return;
    setNumbers((current) =>
      current.some((existing) => existing.number === typed.number) ? current : [...current, typed],
    );
    setInput('');
  };
  const valid = numbers.filter((entry) => entry.valid).map((entry) => entry.number);
  const tooMany = valid.length > maxNumbersPerRequest;

  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title="Tracking Numbers"
      size={modalWidths.wide}
      closeOnClickOutside={false}
    >
      <Stack gap="md">
        <TextInput
          label="Phone number to add"
          description="Type a number and press Enter. Numbers without a leading + get +1."
          type="tel"
          inputMode="tel"
          autoComplete="off"
          value={input}
          onChange={(event) => setInput(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
        />
        <ScrollArea
          h={LIST_HEIGHT}
          type="auto"
          style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 4 }}
        >
          {numbers.length === 0 ? (
            <Text size="sm" c="dimmed" p="sm">
              No numbers yet.
            </Text>
          ) : (
            <Box
              component="ul"
              aria-label="Numbers to text"
              m={0}
              p={0}
              style={{ listStyle: 'none' }}
            >
              {numbers.map((entry) => (
                <Group component="li" key={entry.number} justify="space-between" px="sm" py={4}>
                  <Group gap="xs">
                    <Text size="sm" ff="monospace">
                      {entry.number}
                    </Text>
                    {!entry.valid && (
                      <Badge color="red" variant="light" size="sm">
                        invalid
                      </Badge>
                    )}
                  </Group>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    aria-label={`Remove ${entry.number}`}
                    onClick={() =>
                      setNumbers((current) => current.filter((other) => other !== entry))
                    }
                  >
                    <IconX size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              ))}
            </Box>
          )}
        </ScrollArea>
        {tooMany && (
          <Text size="sm" c="red" role="alert">
            At most {maxNumbersPerRequest} numbers can be texted at once; remove{' '}
            {valid.length - maxNumbersPerRequest}.
          </Text>
        )}
        <LanguageRadios value={language} onChange={setLanguage} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={sending}>
            Cancel
          </Button>
          <Button
            disabled={valid.length === 0 || tooMany}
            loading={sending}
            onClick={() => onSend(valid, language)}
          >
            Send SMS
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
