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

/**
 * Whether saving `after` may delete history sooner than `before` does. The page does not know
 * the deployment's default (the worker's `LOCATION_RETENTION_DAYS`, 90 unless configured), so a
 * move to or from it is asked about too.
 */
export function shortensRetention(before: number | null, after: number | null): boolean {
  if (before === after) return false;
  return before === null || after === null || after < before;
}

/**
 * Asked before a retention that may be shorter is saved: the next daily purge deletes what is
 * older, and nothing brings it back. `certain`: both values are numbers, so it is shorter.
 */
export function ShortenRetentionModal({
  days,
  certain,
  onConfirm,
  onClose,
  pending,
  error,
}: {
  days: number | null;
  certain: boolean;
  onConfirm: () => void;
  onClose: () => void;
  pending: boolean;
  error: unknown;
}) {
  const kept = days === null ? 'the deployment’s default number of' : String(days);
  return (
    <ConfirmModal
      title={certain ? 'Keep history for less time?' : 'Change how long history is kept?'}
      confirmLabel={days === null ? 'Use the default' : `Keep ${days} days`}
      onConfirm={onConfirm}
      onClose={onClose}
      pending={pending}
      error={error}
    >
      <Text size="sm">
        {certain ? '' : 'If that is shorter than now: '}
        at the next daily purge, sessions that ended more than {kept} days ago lose their locations,
        texts, chat and consent receipts, unless they are under a legal hold. This cannot be undone.
      </Text>
    </ConfirmModal>
  );
}
