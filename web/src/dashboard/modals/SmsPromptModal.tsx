import type { SmsLanguage } from '@locus/machines';
import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { modalWidths } from '../../public-site/modal-widths';

/** SPEC.md §9: the text-message languages, English first and the default. */
export const smsLanguageOptions: { value: SmsLanguage; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'es', label: 'Spanish' },
  { value: 'fr', label: 'French' },
  { value: 'zh', label: 'Mandarin' },
];

/**
 * SPEC.md §2 "SMS-confirmation prompt", shown when the automatic lookup fails (or a text
 * message did not go out). Only its buttons close it: a stray click outside must not decline,
 * since a declined text cannot be offered again in this session.
 */
export function SmsPromptModal({
  opened,
  phoneNumber,
  sending,
  smsFailed,
  optedOut,
  refusal = null,
  onSend,
  onDecline,
}: {
  opened: boolean;
  phoneNumber: string | null;
  sending: boolean;
  /** The previous text message failed: say so, and offer to try again. */
  smsFailed: boolean;
  /** The number replied STOP: the provider refuses to text it. */
  optedOut: boolean;
  /**
   * Why the server refused the previous text when sending again would not help by itself (a
   * number that cannot receive texts, or the SMS limits), in its own words.
   */
  refusal?: string | null;
  onSend: (language: SmsLanguage) => void;
  onDecline: () => void;
}) {
  const [language, setLanguage] = useState<SmsLanguage>('en');
  // Closing a modal clears its fields (SPEC.md §4): each offer starts from English.
  useEffect(() => {
    if (opened) setLanguage('en');
  }, [opened]);

  const number = phoneNumber ?? 'the caller';
  const offer = 'Locus can text the caller a link that asks them to share their location with you.';
  const explanation = optedOut
    ? `${number} has opted out of text messages from Locus (it replied STOP), so no text can be sent.`
    : refusal
      ? `The text message to ${number} was not sent. ${refusal}`
      : smsFailed
        ? `The text message to ${number} could not be sent. ${offer}`
        : `The automatic lookup could not find ${number}. ${offer}`;

  return (
    <Modal
      opened={opened}
      onClose={() => undefined}
      title="Send SMS to the caller?"
      size={modalWidths.narrow}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSend(language);
        }}
      >
        <Stack gap="md">
          <Text size="sm">{explanation}</Text>
          <Radio.Group
            label="Text message language"
            value={language}
            onChange={(value) => setLanguage(value as SmsLanguage)}
          >
            <Group gap="md" mt={6}>
              {smsLanguageOptions.map((option) => (
                <Radio key={option.value} value={option.value} label={option.label} />
              ))}
            </Group>
          </Radio.Group>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onDecline} disabled={sending}>
              No thanks
            </Button>
            <Button type="submit" loading={sending}>
              Send SMS
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
