import type { CallerPageTexts } from '@locus/contract';
import { IconMapPin, IconMapPinOff } from '@tabler/icons-react';
import { CallerButton } from './CallerButton';
import { CallerHeading } from './CallerHeading';
import { CallForHelp } from './LinkEndViews';

/** The caller stopped sharing; they may share again while the request is open. */
export function StoppedView({ t, onShareAgain }: { t: CallerPageTexts; onShareAgain: () => void }) {
  return (
    <>
      <CallerHeading
        title={t.stoppedTitle}
        icon={<IconMapPinOff size={30} />}
        color="gray"
        announce
      >
        {t.stoppedBody}
      </CallerHeading>
      <CallerButton icon={<IconMapPin size={26} />} onClick={onShareAgain}>
        {t.shareAgainButton}
      </CallerButton>
      <CallForHelp t={t} />
    </>
  );
}
