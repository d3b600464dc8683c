import { Drawer, Stack, Text } from '@mantine/core';
import { BusiestHoursCard } from './BusiestHoursCard';
import { TimeSeriesChart, seriesColors } from './charts';
import type { MetricsTable } from './csv';
import { formatMs, percentOf, shortDay, toSeconds, weekdayHour } from './format';
import { LanguagesCard } from './LanguagesCard';
import { MetricCard } from './MetricCard';
import {
  useUserCalendarTotals,
  useUserDailyTotals,
  useUserLanguages,
  useUserStatistics,
  useUserTotalUsage,
  type TeamRange,
  type UserRange,
} from './queries';
import { TotalsCard } from './TotalsCard';

type UserCardProps = { params: UserRange; fileNameParts: readonly string[] };

/** The same counts as the team's totals, for the sessions this user started (get-user-total-usage). */
function TheirTotals({ params, fileNameParts }: UserCardProps) {
  const query = useUserTotalUsage(params);
  const totals = query.data?.totals;
  return (
    <TotalsCard
      title="Their totals"
      status={query}
      fileNameParts={fileNameParts}
      range={params}
      figures={
        totals && [
          { label: 'Sessions', value: totals.sessions },
          { label: 'Numbers asked for', value: totals.numbers },
          {
            label: 'Located',
            value: totals.located,
            note: `${percentOf(totals.located, totals.sessions)} of sessions`,
          },
          { label: 'Texts sent', value: totals.textsSent },
          { label: 'Transfers', value: totals.transfers },
          { label: 'Chats', value: totals.chats },
        ]
      }
    />
  );
}

/** How fast they located callers, how long their cases ran, their busiest hour (get-user-statistics). */
function TheirTimes({ params, fileNameParts }: UserCardProps) {
  const query = useUserStatistics(params);
  const stats = query.data?.statistics;
  return (
    <TotalsCard
      title="Their times"
      status={query}
      fileNameParts={fileNameParts}
      range={params}
      perRow={4}
      figures={
        stats && [
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
        ]
      }
    />
  );
}

function TheirDays({ params, fileNameParts }: UserCardProps) {
  const daily = useUserDailyTotals(params);
  const dailyTable: MetricsTable | undefined = daily.data && {
    columns: ['Day', 'Sessions', 'Located'],
    rows: daily.data.days.map((day) => [day.day, day.sessions, day.located]),
  };
  return (
    <MetricCard
      title="Their locates per day"
      status={daily}
      table={dailyTable}
      empty={dailyTable?.rows.every((row) => row[1] === 0)}
      fileNameParts={fileNameParts}
      range={params}
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
  );
}

function TheirLanguages({ params, fileNameParts }: UserCardProps) {
  const query = useUserLanguages(params);
  return (
    <LanguagesCard
      title="Their callers by language"
      description="The language of the link text each of their callers received."
      status={query}
      languages={query.data?.languages}
      fileNameParts={fileNameParts}
      range={params}
      chartHeight={220}
    />
  );
}

function TheirHours({ params, fileNameParts }: UserCardProps) {
  const query = useUserCalendarTotals(params);
  return (
    <BusiestHoursCard
      title="Their busiest hours"
      description={`Sessions they started per weekday (rows) and hour of the day (columns), in ${
        query.data?.timeZone ?? 'the team’s time zone'
      }.`}
      status={query}
      cells={query.data?.cells}
      fileNameParts={fileNameParts}
      range={params}
    />
  );
}

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
  const card: UserCardProps = {
    params: { userId, from: range.from, to: range.to },
    fileNameParts: [...fileNameParts, name],
  };
  return (
    <Stack gap="md">
      <Text size="sm">
        The sessions {name} started, from {range.from} to {range.to}.
      </Text>
      <TheirTotals {...card} />
      <TheirTimes {...card} />
      <TheirDays {...card} />
      <TheirLanguages {...card} />
      <TheirHours {...card} />
    </Stack>
  );
}

/** One person's own metrics for the page's range, over the page (the get-user-… calls). */
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
