/** @jsxImportSource preact */
import type { CallerPageTexts } from '@locus/contract/caller';
import { useMemo } from 'preact/hooks';
import { useAnnouncement } from './announcer';
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
  useAnnouncement('alert', t.deniedBody);
  const steps = useMemo(() => permissionSteps(t.deniedSteps), [t.deniedSteps]);
  return (
    <>
      <CallerHeading title={t.deniedTitle} icon="locationOff" tone="signal" announce />
      <p class="lead">{t.deniedBody}</p>
      <ol class="steps">
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <CallerButton icon="refresh" onClick={onTryAgain}>
        {t.tryAgainButton}
      </CallerButton>
      <CallForHelp t={t} />
    </>
  );
}
