/** @jsxImportSource preact */
import type { CallerPageTexts } from '@locus/contract/caller';
// encode alone: the package's index would bring decode, expand and shorten along (CommonJS
// cannot be tree-shaken).
import encode from 'pluscodes/dist/encode';
import type { ShownFix } from './location-sharing';

/** The section's title: focused when the text offer above it goes away under the caller's finger. */
export const yourLocationTitleId = 'your-location-title';

/** Latitude and longitude as a caller reads them out (5 decimals, about a metre), as texted. */
export function coordinatesText({ latitude, longitude }: ShownFix): string {
  return `${latitude.toFixed(5)}, ${longitude.toFixed(5)}`;
}

/**
 * The full Plus Code (`87C4VXX7+39`) in groups a caller can read out: `87C4 VXX7+39`. The text
 * itself stays whole (copied, found, read by a screen reader as one code); the gap is a margin,
 * and a narrow screen may break the line between groups, never inside one.
 */
function PlusCode({ code }: { code: string }) {
  return (
    <>
      <span class="group">{code.slice(0, 4)}</span>
      <wbr />
      <span class="group">{code.slice(4, 8)}</span>
      <wbr />
      {code.slice(8)}
    </>
  );
}

/**
 * "Your location": the phone's newest position, in words a caller can read to the dispatcher
 * over the phone when the page cannot send it (no signal for data, the server unreachable).
 */
export function YourLocation({
  t,
  fix,
  time,
}: {
  t: CallerPageTexts;
  fix: ShownFix;
  /** When it was taken, formatted for the page's language. */
  time: string;
}) {
  const plusCode = encode({ latitude: fix.latitude, longitude: fix.longitude });
  return (
    <section class="card here" aria-labelledby={yourLocationTitleId}>
      <h2 id={yourLocationTitleId} tabIndex={-1}>
        {t.yourLocationTitle}
      </h2>
      <p class="quiet">{t.readToDispatcher}</p>
      <dl>
        {plusCode && (
          <>
            <dt>{t.plusCodeLabel}</dt>
            <dd class="pluscode" translate={false}>
              <PlusCode code={plusCode} />
            </dd>
          </>
        )}
        <dt>{t.coordinatesLabel}</dt>
        <dd class="coords" translate={false}>
          {coordinatesText(fix)}
        </dd>
        <dd>{t.accuracy(Math.round(fix.accuracy))}</dd>
      </dl>
      <p>{t.takenAt(time)}</p>
    </section>
  );
}
