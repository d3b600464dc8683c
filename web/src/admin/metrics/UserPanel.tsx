import { Drawer, Stack, Text } from '@mantine/core';
import { TimeSeriesChart, seriesColors } from './charts';
import type { MetricsTable } from './csv';
import { formatMs, percentOf, shortDay, toSeconds, weekdayHour } from './format';
import { MetricCard } from './MetricCard';
import { useUserDailyTotals, useUserStatistics, type TeamRange } from './queries';
import { TotalsCard } from './TotalsCard';

function UserMetrics({
  userId,
  name,
  range,
  fileNameParts,
}: {
  userId: string;
  name: string;
  range: TeamRange;
  fileNameParts: readonly string[];
}) {
  const params = { userId, from: range.from, to: range.to };
  const statistics = useUserStatistics(params);
  const daily = useUserDailyTotals(params);
  const stats = statistics.data?.statistics;
  const parts = [...fileNameParts, name];
  const dailyTable: MetricsTable | undefined = daily.data && {
    columns: ['Day', 'Sessions', 'Located'],
    rows: daily.data.days.map((day) => [day.day, day.sessions, day.located]),
  };
  return (
    <Stack gap="md">
      <Text size="sm">
        The sessions {name} started, from {range.from} to {range.to}.
      </Text>
      <TotalsCard
        title="Their totals"
        status={statistics}
        fileNameParts={parts}
        range={range}
        figures={
          stats && [
            { label: 'Sessions', value: stats.totals.sessions },
            {
              label: 'Located',
              value: stats.totals.located,
              note: `${percentOf(stats.totals.located, stats.totals.sessions)} of sessions`,
            },
            { label: 'Texts sent', value: stats.totals.textsSent },
            {
              label: 'Median time to locate',
              unit: 's',
              value: toSeconds(stats.timeToLocateP50Ms),
              display: formatMs(stats.timeToLocateP50Ms),
            },
            {
              label: '90th percentile time to locate',
              unit: 's',
              value: toSeconds(stats.timeToLocateP90Ms),
              display: formatMs(stats.timeToLocateP90Ms),
            },
            {
              label: 'Average case',
              unit: 's',
              value: toSeconds(stats.averageCaseMs),
              display: formatMs(stats.averageCaseMs),
            },
            {
              label: 'Busiest hour',
              value: stats.busiest ? weekdayHour(stats.busiest.weekday, stats.busiest.hour) : null,
            },
            { label: 'Transfers', value: stats.totals.transfers },
            { label: 'Chats', value: stats.totals.chats },
          ]
        }
      />
      <MetricCard
        title="Their locates per day"
        status={daily}
        table={dailyTable}
        empty={dailyTable?.rows.every((row) => row[1] === 0)}
        fileNameParts={parts}
        range={range}
        chart={() => (
          <TimeSeriesChart
            data={daily.data!.days.map((day) => ({ ...day }))}
            dataKey="day"
            series={[
              { name: 'sessions', label: 'Sessions', color: seriesColors.first },
              { name: 'located', label: 'Located', color: seriesColors.second },
            ]}
            xLabel="Day"
            yLabel="Sessions"
            tickFormatter={shortDay}
            height={220}
          />
        )}
      />
    </Stack>
  );
}

/** One person's own metrics for the page's range, over the page (get-user-statistics and -daily-totals). */
export function UserPanel({
  user,
  range,
  fileNameParts,
  onClose,
}: {
  user: { userId: string; name: string } | null;
  range: TeamRange;
  fileNameParts: readonly string[];
  onClose: () => void;
}) {
  return (
    <Drawer
      opened={user !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={user ? `${user.name}: metrics` : ''}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {user && (
        <UserMetrics
          userId={user.userId}
          name={user.name}
          range={range}
          fileNameParts={fileNameParts}
        />
      )}
    </Drawer>
  );
}
