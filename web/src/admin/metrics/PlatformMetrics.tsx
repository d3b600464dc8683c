import { SimpleGrid } from '@mantine/core';
import { BarsChart, seriesColors, TimeSeriesChart } from './charts';
import type { MetricsTable } from './csv';
import { formatCount, shortDay, shortMonth } from './format';
import { MetricCard } from './MetricCard';
import { usePlatformMetrics } from './queries';
import type { DateRange } from './range';
import { TotalsCard } from './TotalsCard';

const fileNameParts = ['Platform'];
/** The chart of teams side by side names this many; the table lists them all. */
const chartedTeams = 15;

/** Every team's totals side by side, the platform's growth per month, and sign-ins per day. */
export function PlatformMetrics({ range }: { range: DateRange }) {
  const query = usePlatformMetrics(range);
  const platform = query.data?.platform;
  const teams = platform?.teams;
  const sum = (key: 'sessions' | 'located' | 'textsSent' | 'signIns') =>
    (teams ?? []).reduce((total, team) => total + team[key], 0);

  const everyTeam: MetricsTable | undefined = teams && {
    columns: [
      'Team',
      'Sessions',
      'Numbers',
      'Located',
      'Texts sent',
      'Transfers',
      'Chats',
      'Sign-ins',
    ],
    rows: teams.map((team) => [
      team.teamName,
      team.sessions,
      team.numbers,
      team.located,
      team.textsSent,
      team.transfers,
      team.chats,
      team.signIns,
    ]),
  };
  const busiest =
    teams && [...teams].sort((a, b) => b.sessions - a.sessions).slice(0, chartedTeams);
  const busiestTable: MetricsTable | undefined = busiest && {
    columns: ['Team', 'Sessions', 'Located'],
    rows: busiest.map((team) => [team.teamName, team.sessions, team.located]),
  };
  const sessionsPerMonth: MetricsTable | undefined = platform && {
    columns: ['Month', 'Sessions'],
    rows: platform.growth.map((month) => [month.month, month.sessions]),
  };
  const adoption: MetricsTable | undefined = platform && {
    columns: ['Month', 'Active teams', 'New users'],
    rows: platform.growth.map((month) => [month.month, month.activeTeams, month.newUsers]),
  };
  const logins: MetricsTable | undefined = platform && {
    columns: ['Day', 'Signed in', 'Failed'],
    rows: platform.logins.map((day) => [day.day, day.succeeded, day.failed]),
  };
  const zero = (table: MetricsTable | undefined) =>
    table !== undefined && table.rows.every((row) => row.slice(1).every((value) => value === 0));

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" className="locus-metrics-grid">
      <TotalsCard
        title="Platform totals"
        description="Every team together."
        status={query}
        fileNameParts={fileNameParts}
        range={range}
        wide
        figures={
          teams && [
            { label: 'Teams', value: teams.length },
            {
              label: 'Teams with sessions',
              value: teams.filter((team) => team.sessions > 0).length,
            },
            { label: 'Sessions', value: sum('sessions') },
            { label: 'Located', value: sum('located') },
            { label: 'Texts sent', value: sum('textsSent') },
            { label: 'Sign-ins', value: sum('signIns') },
          ]
        }
      />
      <MetricCard
        title="Teams side by side"
        description={`The ${chartedTeams} teams with the most sessions; the table below lists every team.`}
        status={query}
        table={busiestTable}
        empty={zero(busiestTable)}
        fileNameParts={fileNameParts}
        range={range}
        wide
        chart={() => (
          <BarsChart
            data={busiest!.map((team) => ({
              team: team.teamName,
              sessions: team.sessions,
              located: team.located,
            }))}
            dataKey="team"
            series={[
              { name: 'sessions', label: 'Sessions', color: seriesColors.first },
              { name: 'located', label: 'Located', color: seriesColors.second },
            ]}
            xLabel="Sessions"
            yLabel="Team"
            horizontal
            categoryWidth={200}
            height={Math.max(200, 40 + busiest!.length * 44)}
          />
        )}
      />
      <MetricCard
        title="Every team"
        description="Each team’s totals in the range."
        status={query}
        table={everyTeam}
        empty={teams?.length === 0}
        emptyText="There are no teams."
        fileNameParts={fileNameParts}
        range={range}
        wide
      />
      <MetricCard
        title="Sessions per month"
        description="Across the platform (UTC months)."
        status={query}
        table={sessionsPerMonth}
        empty={zero(sessionsPerMonth)}
        fileNameParts={fileNameParts}
        range={range}
        chart={() => (
          <TimeSeriesChart
            data={platform!.growth.map((month) => ({
              month: month.month,
              sessions: month.sessions,
            }))}
            dataKey="month"
            series={[{ name: 'sessions', label: 'Sessions', color: seriesColors.first }]}
            xLabel="Month"
            yLabel="Sessions"
            tickFormatter={shortMonth}
          />
        )}
      />
      <MetricCard
        title="Active teams and new users per month"
        description="Teams that started a session in the month, and accounts created in it."
        status={query}
        table={adoption}
        empty={zero(adoption)}
        emptyText="No activity in this range."
        fileNameParts={fileNameParts}
        range={range}
        chart={() => (
          <TimeSeriesChart
            data={platform!.growth.map((month) => ({
              month: month.month,
              activeTeams: month.activeTeams,
              newUsers: month.newUsers,
            }))}
            dataKey="month"
            series={[
              { name: 'activeTeams', label: 'Active teams', color: seriesColors.first },
              { name: 'newUsers', label: 'New users', color: seriesColors.second },
            ]}
            xLabel="Month"
            yLabel="Count"
            tickFormatter={shortMonth}
          />
        )}
      />
      <MetricCard
        title="Sign-ins per day"
        description="Every team’s members (UTC days)."
        status={query}
        table={logins}
        empty={zero(logins)}
        emptyText="No sign-ins in this range."
        fileNameParts={fileNameParts}
        range={range}
        wide
        chart={() => (
          <TimeSeriesChart
            data={platform!.logins.map((day) => ({ ...day }))}
            dataKey="day"
            series={[
              { name: 'succeeded', label: 'Signed in', color: seriesColors.first },
              { name: 'failed', label: 'Failed', color: seriesColors.second },
            ]}
            xLabel="Day"
            yLabel="Sign-ins"
            tickFormatter={shortDay}
            stacked
          />
        )}
        summary={
          platform &&
          `${formatCount(platform.logins.reduce((total, day) => total + day.succeeded, 0))} sign-ins, ${formatCount(
            platform.logins.reduce((total, day) => total + day.failed, 0),
          )} failed.`
        }
      />
    </SimpleGrid>
  );
}
