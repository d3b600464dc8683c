import type { CallerTexts } from '@locus/contract';
import { IconDeviceMobileOff } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { CallerHeading } from './CallerHeading';
import { CallForHelp, LinkEndView, LoadingView } from './LinkEndViews';
import { PermissionDeniedView } from './PermissionDeniedView';
import { ShareRequestView } from './ShareRequestView';
import { SharingView } from './SharingView';
import { StoppedView } from './StoppedView';
import { useLocationSharing } from './useLocationSharing';

/** An active link: the request, then sharing, stopping, refusals, until the request ends. */
export function ShareFlow({
  token,
  agencyName,
  texts,
  onRevoked,
}: {
  token: string;
  agencyName: string;
  texts: CallerTexts;
  /** The server refused the link: the page asks the API why. */
  onRevoked: () => void;
}) {
  const { state, start, stop } = useLocationSharing(token);
  const t = texts.page;

  const revoked = state.phase === 'revoked';
  const reported = useRef(false);
  useEffect(() => {
    if (!revoked || reported.current) return;
    reported.current = true;
    onRevoked();
  }, [revoked, onRevoked]);

  switch (state.phase) {
    case 'idle':
      return <ShareRequestView t={t} agencyName={agencyName} onShare={start} announce={false} />;
    case 'starting':
    case 'sharing':
      return <SharingView texts={texts} state={state} onStop={stop} />;
    case 'stopped':
      return <StoppedView t={t} onShareAgain={start} />;
    case 'denied':
      return <PermissionDeniedView t={t} onTryAgain={start} />;
    case 'unsupported':
      return (
        <>
          <CallerHeading
            title={t.unsupportedTitle}
            icon={<IconDeviceMobileOff size={30} />}
            color="gray"
            announce
          >
            {t.unsupportedBody}
          </CallerHeading>
          <CallForHelp t={t} />
        </>
      );
    case 'ended':
      return <LinkEndView end="ended" t={t} announce />;
    case 'revoked':
      return <LoadingView t={t} />;
  }
}
