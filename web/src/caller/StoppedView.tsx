/** @jsxImportSource preact */
import type { CallerPageTexts } from '@locus/contract/caller';
import { useAnnouncement } from './announcer';
import { CallerButton } from './CallerButton';
import { CallerHeading } from './CallerHeading';
import { CallForHelp } from './LinkEndViews';

/** The caller stopped sharing; they may share again while the request is open. */
export function StoppedView({ t, onShareAgain }: { t: CallerPageTexts; onShareAgain: () => void }) {
  useAnnouncement('status', t.stoppedBody);
  return (
    <>
      <CallerHeading title={t.stoppedTitle} icon="mapPinOff" tone="gray" announce>
        {t.stoppedBody}
      </CallerHeading>
      <CallerButton icon="mapPin" onClick={onShareAgain}>
        {t.shareAgainButton}
      </CallerButton>
      <CallForHelp t={t} />
    </>
  );
}
