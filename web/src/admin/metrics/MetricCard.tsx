import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import { csvFileName, toCsv, type Cell, type MetricsTable } from './csv';
import { downloadText } from './download';
import { formatCount } from './format';
import { failureMessage } from './queries';
import type { DateRange } from './range';

/** A cell as the table shows it: counts with thousands separators, a dash for nothing measured. */
function shown(value: Cell): string {
  if (value === null) return '—';
  return typeof value === 'number' ? formatCount(value) : value;
}

/**
 * A table of a card's numbers, the first column as row headers. `firstCell` replaces the first
 * cell's content (a button that opens a row, say); the CSV keeps the text.
 */
export function NumbersTable({
  table,
  labelledBy,
  firstCell,
  hidden = false,
  maxHeight,
}: {
  table: MetricsTable;
  labelledBy: string;
  firstCell?: (rowIndex: number) => ReactNode;
  /** Read by screen readers only: no scrolling container around it. */
  hidden?: boolean;
  /** A long table scrolls within this height, its header row staying in view (not on paper). */
  maxHeight?: number;
}) {
  // Figures line up on the right; a column of text only (names, dates) reads from the left.
  const align = table.columns.map((_, index) => {
    const text =
      table.rows.some((row) => typeof row[index] === 'string') &&
      !table.rows.some((row) => typeof row[index] === 'number');
    return index === 0 || text ? undefined : ('right' as const);
  });
  const content = (
    <Table
      verticalSpacing={4}
      aria-labelledby={labelledBy}
      striped={!hidden}
      stickyHeader={!hidden && maxHeight !== undefined}
    >
      <Table.Thead>
        <Table.Tr>
          {table.columns.map((column, index) => (
            <Table.Th key={column} scope="col" ta={align[index]}>
              {column}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {table.rows.map((row, rowIndex) => (
          <Table.Tr key={`${String(row[0])}-${rowIndex}`}>
            {row.map((value, index) =>
              index === 0 ? (
                <Table.Th key={index} scope="row" fw={500}>
                  {firstCell ? firstCell(rowIndex) : shown(value)}
                </Table.Th>
              ) : (
                <Table.Td
                  key={index}
                  ta={align[index]}
                  style={{ fontVariantNumeric: 'tabular-nums' }}
                >
                  {shown(value)}
                </Table.Td>
              ),
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  if (hidden) return <div className="locus-visually-hidden">{content}</div>;
  // A wide table scrolls sideways; keyboard users scroll it once it has the focus.
  return (
    <Table.ScrollContainer
      minWidth={Math.max(0, table.columns.length * 90)}
      type="native"
      tabIndex={0}
      role="group"
      aria-labelledby={labelledBy}
      className={maxHeight === undefined ? undefined : 'locus-metrics-scroll'}
      style={maxHeight === undefined ? undefined : { maxHeight, overflowY: 'auto' }}
    >
      {content}
    </Table.ScrollContainer>
  );
}

export interface MetricCardProps {
  title: string;
  /** What the card counts, in a sentence, under its title. */
  description?: ReactNode;
  /** The query behind the card: a loader while it runs, its error when it fails. */
  status: { isPending: boolean; isError: boolean; error: unknown };
  /** The card's numbers: the chart's data, its table for screen readers, and its CSV. */
  table: MetricsTable | undefined;
  /** True when every number is zero: the card says so instead of drawing an empty chart. */
  empty?: boolean;
  emptyText?: string;
  /** Names the CSV file, with the range: the team's name, say. */
  fileNameParts: readonly string[];
  range: DateRange;
  /**
   * The drawing. Hidden from screen readers, which read the same numbers as a table; without a
   * chart the card is its table.
   */
  chart?: () => ReactNode;
  /** Figures in words under the chart (medians, say). */
  summary?: ReactNode;
  firstCell?: (rowIndex: number) => ReactNode;
  /** Across the whole grid rather than one column. */
  wide?: boolean;
  /** A line above the numbers once they are loaded (a cap reached, say). */
  notice?: ReactNode;
  /** A long table scrolls within this height (in pixels) rather than lengthening the page. */
  tableMaxHeight?: number;
}

/**
 * One chart or table of the metrics screens: a region named by its title, with a "Show as table"
 * switch, a "Download CSV" button, loading, error and empty states, and the chart's numbers as a
 * visually hidden table, so that what is drawn is also read.
 */
export function MetricCard({
  title,
  description,
  status,
  table,
  empty = false,
  emptyText = 'No sessions in this range.',
  fileNameParts,
  range,
  chart,
  summary,
  firstCell,
  wide = false,
  notice,
  tableMaxHeight,
}: MetricCardProps) {
  const headingId = useId();
  const [asTable, setAsTable] = useState(false);
  const ready = !status.isPending && !status.isError && table !== undefined;
  const tableShown = chart === undefined || asTable;

  const download = () => {
    if (table) downloadText(csvFileName([...fileNameParts, title], range), toCsv(table));
  };

  let body: ReactNode;
  if (status.isPending) {
    body = <Loader size="sm" aria-label={`Loading ${title.toLowerCase()}`} />;
  } else if (status.isError || table === undefined) {
    body = (
      <Alert color="red" role="alert" title={`${title} could not be loaded`}>
        {failureMessage(status.error)}
      </Alert>
    );
  } else if (empty) {
    body = <Text c="dimmed">{emptyText}</Text>;
  } else if (tableShown) {
    body = (
      <NumbersTable
        table={table}
        labelledBy={headingId}
        firstCell={firstCell}
        maxHeight={tableMaxHeight}
      />
    );
  } else {
    body = (
      <>
        <div aria-hidden="true" className="locus-metrics-chart" data-testid="chart">
          {chart!()}
        </div>
        <NumbersTable table={table} labelledBy={headingId} hidden />
      </>
    );
  }

  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      component="section"
      aria-labelledby={headingId}
      className="locus-metrics-card"
      style={wide ? { gridColumn: '1 / -1' } : undefined}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Stack gap={2} style={{ flex: '1 1 16rem' }}>
            <Title order={2} size="h4" id={headingId}>
              {title}
            </Title>
            {description && (
              <Text size="sm" c="dimmed">
                {description}
              </Text>
            )}
          </Stack>
          <Group gap="sm" className="locus-no-print" wrap="wrap">
            {chart !== undefined && (
              <Switch
                size="sm"
                label={
                  <>
                    Show as table<VisuallyHidden>: {title}</VisuallyHidden>
                  </>
                }
                checked={asTable}
                onChange={(event) => setAsTable(event.currentTarget.checked)}
                disabled={!ready || empty}
              />
            )}
            <Button
              size="xs"
              variant="default"
              leftSection={<IconDownload size={14} aria-hidden />}
              onClick={download}
              disabled={!ready}
            >
              Download CSV<VisuallyHidden> of {title}</VisuallyHidden>
            </Button>
          </Group>
        </Group>
        {ready && notice && (
          <Text size="sm" fw={600} data-testid="metric-notice">
            {notice}
          </Text>
        )}
        {body}
        {ready && !empty && summary && (
          <Text size="sm" component="div">
            {summary}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
