import type { CallerPageTexts } from '@locus/contract';
import { Stack, Text } from '@mantine/core';
import { IconMapPin, IconShieldCheck } from '@tabler/icons-react';
import { CallerButton } from './CallerButton';
import { CallerHeading } from './CallerHeading';

/** Who asks, why, and what sharing means; nothing leaves the phone before the tap. */
export function ShareRequestView({
  t,
  agencyName,
  onShare,
  announce,
}: {
  t: CallerPageTexts;
  agencyName: string;
  onShare: () => void;
  announce: boolean;
}) {
  return (
    <>
      <CallerHeading
        title={t.requestTitle}
        icon={<IconShieldCheck size={30} />}
        announce={announce}
      >
        <Text span size="xl" fw={700} c="dark.9">
          {t.requestFrom(agencyName)}
        </Text>
      </CallerHeading>
      <Stack gap="xs">
        <Text size="lg">{t.requestWhy}</Text>
        <Text size="lg">{t.requestWhat}</Text>
        <Text size="md" c="gray.7">
          {t.requestConsent}
        </Text>
      </Stack>
      <CallerButton icon={<IconMapPin size={26} />} onClick={onShare}>
        {t.shareButton}
      </CallerButton>
    </>
  );
}
