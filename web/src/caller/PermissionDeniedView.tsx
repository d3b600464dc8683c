import type { CallerPageTexts } from '@locus/contract';
import { List, Text } from '@mantine/core';
import { IconLocationOff, IconRefresh } from '@tabler/icons-react';
import { useMemo } from 'react';
import { CallerButton } from './CallerButton';
import { CallerHeading } from './CallerHeading';
import { CallForHelp } from './LinkEndViews';
import { permissionSteps } from './permission-help';

/** Location was refused: how to allow it again on this very phone and browser. */
export function PermissionDeniedView({
  t,
  onTryAgain,
}: {
  t: CallerPageTexts;
  onTryAgain: () => void;
}) {
  const steps = useMemo(() => permissionSteps(t.deniedSteps), [t.deniedSteps]);
  return (
    <>
      <CallerHeading
        title={t.deniedTitle}
        icon={<IconLocationOff size={30} />}
        color="signal"
        announce
      />
      <Text size="lg">{t.deniedBody}</Text>
      <List type="ordered" spacing="sm" size="lg" withPadding>
        {steps.map((step) => (
          <List.Item key={step}>{step}</List.Item>
        ))}
      </List>
      <CallerButton icon={<IconRefresh size={24} />} onClick={onTryAgain}>
        {t.tryAgainButton}
      </CallerButton>
      <CallForHelp t={t} />
    </>
  );
}
