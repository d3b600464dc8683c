import { statusSampleIntervalMs, type StatusSample } from '@locus/contract';
import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { countOf, formatMs, formatRate } from './format';
import type { SparkPoint } from './spark-path';
import { Sparkline } from './Sparkline';

interface Series {
  label: string;
  value: (sample: StatusSample) => number | null;
  format: (value: number) => string;
}

const series: Series[] = [
  { label: 'Fixes per second', value: (sample) => sample.fixesPerSecond, format: formatRate },
  { label: 'Delivery p99', value: (sample) => sample.deliveryP99Ms, format: formatMs },
  {
    label: 'Queue depth',
    value: (sample) => sample.queueDepth,
    format: (value) => countOf(value, 'job'),
  },
  {
    // Failures are reported seconds to minutes after a text: the last hour's count, as it grows.
    label: 'Failed texts, last hour',
    value: (sample) => sample.smsFailures,
    format: (value) => countOf(value, 'text'),
  },
];

/** The last hour's samples as four sparklines, each with its latest value in words. */
export function HistoryPanel({ history }: { history: readonly StatusSample[] }) {
  const headingId = useId();
  const last = history[history.length - 1];
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId}>
        The last hour
      </Title>
      {history.length < 2 && (
        <Text size="sm" c="dimmed">
          {`A sample is taken every ${statusSampleIntervalMs / 1_000} seconds: the lines draw from the second one.`}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg">
        {series.map(({ label, value, format }) => {
          const points: SparkPoint[] = history.map((sample) => ({
            at: Date.parse(sample.at),
            value: value(sample),
          }));
          const latest = last ? value(last) : null;
          return (
            <Sparkline
              key={label}
              label={label}
              points={points}
              latest={latest === null ? null : format(latest)}
            />
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}
