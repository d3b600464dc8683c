import { Paper, SimpleGrid, Text } from '@mantine/core';
import type { Cell, MetricsTable } from './csv';
import { formatCount } from './format';
import { MetricCard, type MetricCardProps } from './MetricCard';

export interface Figure {
  label: string;
  /** What the table and the CSV carry. */
  value: Cell;
  /** How the tile writes it, when not as a count (`4 min 10 s` for 250 seconds). */
  display?: string;
  /** A line under the figure: `62% of sessions`. */
  note?: string;
  /** The unit the table's value is in, named in the table (the tile writes it out). */
  unit?: string;
}

/** Big figures in tiles, and the same figures as a Measure / Value table and CSV. */
export function TotalsCard({
  figures,
  perRow,
  ...card
}: Omit<MetricCardProps, 'table' | 'chart'> & {
  figures: Figure[] | undefined;
  /** Tiles in a row on a wide screen: six, or three when there are more than six. */
  perRow?: number;
}) {
  const table: MetricsTable | undefined = figures && {
    columns: ['Measure', 'Value'],
    rows: figures.map((figure) => [
      figure.unit ? `${figure.label} (${figure.unit})` : figure.label,
      figure.value,
    ]),
  };
  return (
    <MetricCard
      {...card}
      table={table}
      chart={() => (
        <SimpleGrid
          cols={{ base: 2, sm: 3, lg: perRow ?? (figures!.length > 6 ? 3 : 6) }}
          spacing="sm"
        >
          {figures!.map((figure) => (
            <Paper key={figure.label} withBorder radius="sm" p="sm">
              <Text size="sm" c="dimmed">
                {figure.label}
              </Text>
              <Text fz={26} fw={700} lh={1.2}>
                {figure.display ??
                  (typeof figure.value === 'number'
                    ? formatCount(figure.value)
                    : (figure.value ?? '—'))}
              </Text>
              {figure.note && (
                <Text size="xs" c="dimmed">
                  {figure.note}
                </Text>
              )}
            </Paper>
          ))}
        </SimpleGrid>
      )}
    />
  );
}
