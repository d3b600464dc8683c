import { Group, Stack, Text } from '@mantine/core';
import { HEIGHT, PAD, sparkPath, WIDTH, type SparkPoint } from './spark-path';

/**
 * A small hand-drawn line of the last hour, named for screen readers with its latest value,
 * which also shows in text beside it (the line alone says nothing exact).
 */
export function Sparkline({
  label,
  points,
  latest,
}: {
  label: string;
  points: readonly SparkPoint[];
  /** The latest value, formatted ("12 ms"); null when nothing was measured. */
  latest: string | null;
}) {
  const path = sparkPath(points);
  const latestText = latest ?? 'no data yet';
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <Text size="sm" data-testid="sparkline-latest">
          {latestText}
        </Text>
      </Group>
      <svg
        role="img"
        aria-label={`${label} over the last hour, latest ${latestText}`}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        width="100%"
        height={HEIGHT}
        style={{ display: 'block', overflow: 'visible' }}
      >
        <line
          x1={0}
          x2={WIDTH}
          y1={HEIGHT - PAD}
          y2={HEIGHT - PAD}
          stroke="var(--mantine-color-default-border)"
          strokeWidth={1}
          vectorEffect="non-scaling-stroke"
        />
        {path && (
          <path
            d={path}
            fill="none"
            stroke="var(--mantine-color-anchor)"
            strokeWidth={2}
            strokeLinejoin="round"
            strokeLinecap="round"
            vectorEffect="non-scaling-stroke"
          />
        )}
      </svg>
    </Stack>
  );
}
