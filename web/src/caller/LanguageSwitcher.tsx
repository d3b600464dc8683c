import { callerTexts, smsLanguages, type SmsLanguage } from '@locus/contract';
import { Button, Group } from '@mantine/core';

/** The four languages, each named in itself; changes this page only. */
export function LanguageSwitcher({
  language,
  label,
  onChange,
}: {
  language: SmsLanguage;
  /** The group's accessible name, in the current language. */
  label: string;
  onChange: (language: SmsLanguage) => void;
}) {
  return (
    <Group role="group" aria-label={label} gap={2} justify="flex-end">
      {smsLanguages.map((code) => {
        const active = code === language;
        return (
          <Button
            key={code}
            lang={callerTexts[code].locale}
            size="compact-md"
            h={40}
            px={8}
            fz="sm"
            fw={active ? 700 : 500}
            variant={active ? 'light' : 'subtle'}
            aria-pressed={active}
            onClick={() => onChange(code)}
          >
            {callerTexts[code].languageName}
          </Button>
        );
      })}
    </Group>
  );
}
