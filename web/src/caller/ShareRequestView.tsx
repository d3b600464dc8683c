/** @jsxImportSource preact */
import type { CallerPageTexts } from '@locus/contract/caller';
import { CallerButton } from './CallerButton';
import { CallerHeading } from './CallerHeading';

/** Who asks, why, and what sharing means; nothing leaves the phone before the tap. */
export function ShareRequestView({
  t,
  agencyName,
  onShare,
}: {
  t: CallerPageTexts;
  agencyName: string;
  onShare: () => void;
}) {
  return (
    <>
      <CallerHeading title={t.requestTitle} icon="shieldCheck">
        <strong class="who">{t.requestFrom(agencyName)}</strong>
      </CallerHeading>
      <div class="stack">
        <p class="lead">{t.requestWhy}</p>
        <p class="lead">{t.requestWhat}</p>
        <p class="quiet">{t.requestConsent}</p>
      </div>
      <CallerButton icon="mapPin" onClick={onShare}>
        {t.shareButton}
      </CallerButton>
    </>
  );
}
