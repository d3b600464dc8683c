import type { SmsLanguage } from '@locus/machines';
import { Group, Radio } from '@mantine/core';
import { smsLanguageOptions } from './SmsPromptModal';

/** SPEC.md §9 and §4 "Translation language mapping": English (default), Spanish, French, Mandarin. */
export function LanguageRadios({
  value,
  onChange,
}: {
  value: SmsLanguage;
  onChange: (value: SmsLanguage) => void;
}) {
  return (
    <Radio.Group
      label="Text message language"
      value={value}
      onChange={(chosen) => onChange(chosen as SmsLanguage)}
    >
      <Group gap="md" mt={6}>
        {smsLanguageOptions.map((option) => (
          <Radio key={option.value} value={option.value} label={option.label} />
        ))}
      </Group>
    </Radio.Group>
  );
}
