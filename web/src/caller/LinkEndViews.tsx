import type { CallerPageTexts } from '@locus/contract';
import { Center, Loader, Stack, Text } from '@mantine/core';
import {
  IconCircleCheck,
  IconClockOff,
  IconLinkOff,
  IconMessageOff,
  IconRefresh,
  IconWifiOff,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { CallerButton } from './CallerButton';
import { CallerHeading } from './CallerHeading';
import type { LinkEnd } from './caller-link';

/** "If you still need help, call 911." under every page where sharing cannot go on. */
export function CallForHelp({ t }: { t: CallerPageTexts }) {
  return (
    <Text size="lg" fw={700} ta="center">
      {t.callForHelp}
    </Text>
  );
}

type TextKey = {
  [K in keyof CallerPageTexts]: CallerPageTexts[K] extends string ? K : never;
}[keyof CallerPageTexts];

const ends: Record<LinkEnd, { title: TextKey; body: TextKey; icon: ReactNode; color: string }> = {
  ended: {
    title: 'endedTitle',
    body: 'endedBody',
    icon: <IconCircleCheck size={30} />,
    color: 'teal',
  },
  expired: {
    title: 'expiredTitle',
    body: 'expiredBody',
    icon: <IconClockOff size={30} />,
    color: 'gray',
  },
  stopped: {
    title: 'optedOutTitle',
    body: 'optedOutBody',
    icon: <IconMessageOff size={30} />,
    color: 'gray',
  },
  invalid: {
    title: 'invalidTitle',
    body: 'invalidBody',
    icon: <IconLinkOff size={30} />,
    color: 'gray',
  },
};

/** The link no longer works: what happened, and what to do. */
export function LinkEndView({
  end,
  t,
  announce = false,
}: {
  end: LinkEnd;
  t: CallerPageTexts;
  announce?: boolean;
}) {
  const { title, body, icon, color } = ends[end];
  return (
    <>
      <CallerHeading title={t[title]} icon={icon} color={color} announce={announce}>
        {t[body]}
      </CallerHeading>
      <CallForHelp t={t} />
    </>
  );
}

export function LoadingView({ t }: { t: CallerPageTexts }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader aria-hidden />
        <Text size="lg">{t.loading}</Text>
      </Stack>
    </Center>
  );
}

export function LoadFailedView({ t, onRetry }: { t: CallerPageTexts; onRetry: () => void }) {
  return (
    <>
      <CallerHeading title={t.loadFailedTitle} icon={<IconWifiOff size={30} />} color="gray">
        {t.loadFailedBody}
      </CallerHeading>
      <CallerButton icon={<IconRefresh size={24} />} onClick={onRetry}>
        {t.tryAgainButton}
      </CallerButton>
      <CallForHelp t={t} />
    </>
  );
}
