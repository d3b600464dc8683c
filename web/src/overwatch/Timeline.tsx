import { Button, Group, Slider, Text } from '@mantine/core';

const clock = (ms: number) => new Date(ms).toLocaleTimeString([], { hour12: false });

/**
 * Replays the watch: every phone where it was at the chosen moment (its newest fix by then).
 * At the right end, or with "Back to live", the map follows the live fixes again.
 */
export function Timeline({
  start,
  now,
  at,
  onChange,
}: {
  start: number;
  now: number;
  at: number | null;
  onChange: (at: number | null) => void;
}) {
  const span = Math.max(1000, now - start);
  const value = at === null ? 1000 : Math.round(((at - start) / span) * 1000);
  return (
    <Group gap="sm" p="xs" className="locus-overwatch-timeline" wrap="nowrap">
      <Text size="sm" fw={600} miw={120} aria-live="polite" data-testid="timeline-moment">
        {at === null ? 'Live' : `Replaying ${clock(at)}`}
      </Text>
      <Slider
        style={{ flex: 1 }}
        min={0}
        max={1000}
        step={1}
        value={value}
        label={(v) => clock(start + (v / 1000) * span)}
        onChange={(v) => onChange(v >= 1000 ? null : start + (v / 1000) * span)}
        thumbLabel="Timeline: the moment shown on the map"
        thumbProps={{ 'aria-valuetext': at === null ? 'Live' : clock(at) }}
      />
      <Button size="xs" variant="light" disabled={at === null} onClick={() => onChange(null)}>
        Back to live
      </Button>
    </Group>
  );
}
