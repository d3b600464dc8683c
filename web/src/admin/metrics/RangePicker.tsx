import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  localToday,
  presetRange,
  rangeFromSearch,
  rangePresets,
  rangeProblem,
  searchOfRange,
  type DateRange,
  type RangePreset,
} from './range';

/**
 * The range the page shows, kept in the address (`?range=last-7-days` or `?from=…&to=…`), so a
 * link, a reload or the team picker keeps it.
 */
export function useMetricsRange() {
  const [search, setSearch] = useSearchParams();
  const { preset, range } = rangeFromSearch(search, localToday());
  const problem = rangeProblem(range);
  const choose = (next: RangePreset | 'custom', nextRange: DateRange) =>
    setSearch(searchOfRange(next, nextRange), { replace: true });
  return { preset, range, problem, choose, search: searchOfRange(preset, range) };
}

/**
 * Presets and a custom range, from / to both included. A date typed by hand applies once both
 * ends make a range the API takes; until then the field says what is wrong.
 */
export function RangePicker({
  preset,
  range,
  onChange,
}: {
  preset: RangePreset | 'custom';
  range: DateRange;
  onChange: (preset: RangePreset | 'custom', range: DateRange) => void;
}) {
  // What the fields hold, and the range they started from: a preset (or the address) that moves
  // the range puts it in the fields.
  const [fields, setFields] = useState({ of: range, draft: range });
  if (fields.of.from !== range.from || fields.of.to !== range.to)
    setFields({ of: range, draft: range });
  const draft = fields.of.from !== range.from || fields.of.to !== range.to ? range : fields.draft;
  const problem = rangeProblem(draft);

  const edit = (field: 'from' | 'to', value: string) => {
    const next = { ...draft, [field]: value };
    setFields({ of: range, draft: next });
    if (rangeProblem(next) === null) onChange('custom', next);
  };

  return (
    <Stack gap="xs" className="locus-no-print">
      <Group gap="xs" role="group" aria-label="Date range">
        {rangePresets.map((option) => (
          <Button
            key={option.value}
            size="xs"
            variant={preset === option.value ? 'filled' : 'default'}
            aria-pressed={preset === option.value}
            onClick={() => onChange(option.value, presetRange(option.value, localToday()))}
          >
            {option.label}
          </Button>
        ))}
      </Group>
      <Group gap="sm" align="flex-start" wrap="wrap">
        <TextInput
          type="date"
          label="From"
          value={draft.from}
          max={draft.to || undefined}
          onChange={(event) => edit('from', event.currentTarget.value)}
          error={problem?.field === 'from' ? problem.message : null}
          w={170}
        />
        <TextInput
          type="date"
          label="To"
          value={draft.to}
          min={draft.from || undefined}
          onChange={(event) => edit('to', event.currentTarget.value)}
          error={problem?.field === 'to' ? problem.message : null}
          w={170}
        />
        {preset === 'custom' && (
          <Text size="sm" c="dimmed" mt={30}>
            Custom range
          </Text>
        )}
      </Group>
    </Stack>
  );
}
