import { TeamRetentionDays, teamRetentionLimits } from '@locus/contract';
import { NumberInput, Text } from '@mantine/core';
import { ConfirmModal } from '../ConfirmModal';

/** What the field holds: a number of days, or `''` for the deployment's default. */
export type RetentionValue = number | string;

export const retentionValueOf = (days: number | null): RetentionValue => days ?? '';

/** The days to send (null: the default), or why the field is refused. */
export function parseRetention(
  value: RetentionValue,
): { ok: true; days: number | null } | { ok: false; error: string } {
  if (value === '') return { ok: true, days: null };
  const parsed = TeamRetentionDays.safeParse(Number(value));
  return parsed.success
    ? { ok: true, days: parsed.data }
    : { ok: false, error: parsed.error.issues[0]?.message ?? 'Not a number of days' };
}

/**
 * How long the team's ended sessions keep their location history and chat (issue 15). The API
 * does not know the worker's `LOCATION_RETENTION_DAYS`, so the default is named as documented.
 */
export function RetentionInput({
  value,
  onChange,
  error,
}: {
  value: RetentionValue;
  onChange: (value: RetentionValue) => void;
  error: string | null;
}) {
  return (
    <NumberInput
      label="Keep location history and chat for (days)"
      description={
        'Empty: the deployment’s default (90 days unless configured). Fixes, texts and chat of a ' +
        'session are deleted this many days after it ended, unless it is under a legal hold.'
      }
      min={teamRetentionLimits.minDays}
      max={teamRetentionLimits.maxDays}
      // Out-of-range input is explained, not silently changed on blur.
      clampBehavior="none"
      allowDecimal={false}
      allowNegative={false}
      value={value}
      onChange={onChange}
      error={error}
      maw={420}
    />
  );
}

/** The documented default: the page cannot read the worker's `LOCATION_RETENTION_DAYS`. */
const documentedDefaultDays = 90;

/** Whether saving `after` would delete history sooner than `before` does. */
export function shortensRetention(before: number | null, after: number | null): boolean {
  return (after ?? documentedDefaultDays) < (before ?? documentedDefaultDays);
}

/**
 * Asked before a shorter retention is saved: the next daily purge deletes what is older, and
 * nothing brings it back.
 */
export function ShortenRetentionModal({
  days,
  onConfirm,
  onClose,
  pending,
  error,
}: {
  days: number | null;
  onConfirm: () => void;
  onClose: () => void;
  pending: boolean;
  error: unknown;
}) {
  const kept = days ?? documentedDefaultDays;
  return (
    <ConfirmModal
      title="Keep history for less time?"
      confirmLabel={`Keep ${kept} days`}
      onConfirm={onConfirm}
      onClose={onClose}
      pending={pending}
      error={error}
    >
      <Text size="sm">
        At the next daily purge, sessions that ended more than {kept} days ago lose their locations,
        texts, chat and consent receipts, unless they are under a legal hold. This cannot be undone.
      </Text>
    </ConfirmModal>
  );
}
