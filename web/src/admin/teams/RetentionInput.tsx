import { TeamRetentionDays, teamRetentionLimits } from '@locus/contract';
import { NumberInput } from '@mantine/core';

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
