import type { CallerTexts, SmsLanguage } from '@locus/contract';
import { Box, Container, Stack } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { LanguageSwitcher } from './LanguageSwitcher';

/** The caller page's frame: one narrow column, readable on a 320 px phone, in the page's language. */
export function CallerFrame({
  texts,
  language,
  onLanguage,
  children,
}: {
  texts: CallerTexts;
  language: SmsLanguage;
  onLanguage: (language: SmsLanguage) => void;
  children: ReactNode;
}) {
  // The document's language too: screen readers pick their voice from it, browsers their fonts.
  useEffect(() => {
    const root = document.documentElement;
    const previous = root.lang;
    root.lang = texts.locale;
    return () => {
      root.lang = previous;
    };
  }, [texts.locale]);

  return (
    <Box lang={texts.locale} mih="100dvh" bg="gray.0">
      <Container size={480} px="md" pt="xs" pb="xl">
        <LanguageSwitcher
          language={language}
          label={texts.page.languageSwitcher}
          onChange={onLanguage}
        />
        <Stack component="main" gap="lg" mt="md">
          {children}
        </Stack>
      </Container>
    </Box>
  );
}
