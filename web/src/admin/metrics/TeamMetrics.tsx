import type { LocateSource } from '@locus/contract';
import { SimpleGrid, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { BusiestHoursCard } from './BusiestHoursCard';
import { ChatCard } from './ChatCard';
import { BarsChart, LinesChart, seriesColors, TimeSeriesChart } from './charts';
import type { MetricsTable } from './csv';
import {
  durationBucketLabel,
  formatCount,
  formatMs,
  languageLabels,
  percentOf,
  radiusBucketLabel,
  shortDay,
  shortMonth,
  sourceLabels,
  toSeconds,
} from './format';
import { LanguagesCard } from './LanguagesCard';
import { MetricCard } from './MetricCard';
import {
  useAccuracy,
  useCalendar,
  useCaseDurations,
  useCaseTotals,
  useDailyTotals,
  useLanguages,
  useLinkFunnel,
  useMonthlyTotals,
  useTimeToLocate,
  useTotalLogins,
  useUsage,
  useUserLogins,
  useUserSearchTotals,
  type TeamRange,
} from './queries';
import { SessionsCard } from './SessionsCard';
import { TotalsCard } from './TotalsCard';
import { UserPanel } from './UserPanel';

export interface TeamMetricsProps {
  params: TeamRange;
  teamName: string;
}

const allZero = (table: MetricsTable | undefined) =>
  table !== undefined &&
  table.rows.every((row) => row.slice(1).every((value) => value === 0 || value === null));

/** Rows of a table as chart data, keyed by the table's columns. */
function chartData(table: MetricsTable, keys: readonly string[]) {
  return table.rows.map((row) =>
    Object.fromEntries(keys.map((key, index) => [key, row[index] ?? null])),
  );
}

type CardContext = { params: TeamRange; fileNameParts: readonly string[] };

function Totals({ params, fileNameParts }: CardContext) {
  const query = useCaseTotals(params);
  const totals = query.data?.totals;
  return (
    <TotalsCard
      title="Totals"
      description="Everything the team did in the range."
      status={query}
      wide
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

const sessionsAndLocated = [
  { name: 'sessions', label: 'Sessions', color: seriesColors.first },
  { name: 'located', label: 'Located', color: seriesColors.second },
];

function PerDay({ params, fileNameParts }: CardContext) {
  const query = useDailyTotals(params);
  const table: MetricsTable | undefined = query.data && {
    columns: ['Day', 'Sessions', 'Located'],
    rows: query.data.days.map((day) => [day.day, day.sessions, day.located]),
  };
  return (
    <MetricCard
      title="Locates per day"
      description="Sessions started each day, and how many of them located the caller."
      status={query}
      table={table}
      empty={allZero(table)}
      fileNameParts={fileNameParts}
      range={params}
      chart={() => (
        <TimeSeriesChart
          data={chartData(table!, ['day', 'sessions', 'located'])}
          dataKey="day"
          series={sessionsAndLocated}
          xLabel="Day"
          yLabel="Sessions"
          tickFormatter={shortDay}
        />
      )}
    />
  );
}

function PerMonth({ params, fileNameParts }: CardContext) {
  const query = useMonthlyTotals(params);
  const table: MetricsTable | undefined = query.data && {
    columns: ['Month', 'Sessions', 'Located'],
    rows: query.data.months.map((month) => [month.month, month.sessions, month.located]),
  };
  return (
    <MetricCard
      title="Locates per month"
      description="The first and last months may be partial."
      status={query}
      table={table}
      empty={allZero(table)}
      fileNameParts={fileNameParts}
      range={params}
      chart={() => (
        <TimeSeriesChart
          data={chartData(table!, ['month', 'sessions', 'located'])}
          dataKey="month"
          series={sessionsAndLocated}
          xLabel="Month"
          yLabel="Sessions"
          tickFormatter={shortMonth}
        />
      )}
    />
  );
}

function BySource({ params, fileNameParts }: CardContext) {
  const query = useUsage(params);
  const usage = query.data?.usage;
  const outcomes: [string, number][] = usage
    ? [
        ...usage.bySource.map(
          (entry) =>
            [`By ${sourceLabels[entry.source].toLowerCase()}`, entry.located] as [string, number],
        ),
        ['Not located', usage.notLocated],
      ]
    : [];
  // The chart draws the outcomes; the table adds what was asked, which the summary says.
  const table: MetricsTable | undefined = usage && {
    columns: ['Measure', 'Sessions'],
    rows: [
      ...outcomes,
      ['Automatic lookups asked', usage.lookupsRequested],
      ['Automatic lookups answered', usage.lookupsAnswered],
      ['Links texted', usage.linksSent],
    ],
  };
  return (
    <MetricCard
      title="How callers were located"
      description="Sessions located by each source (once, by the source of the first fix), and those never located."
      status={query}
      table={table}
      empty={allZero(table)}
      fileNameParts={fileNameParts}
      range={params}
      chart={() => (
        <BarsChart
          data={outcomes.map(([outcome, sessions]) => ({ outcome, sessions }))}
          dataKey="outcome"
          series={[{ name: 'sessions', label: 'Sessions', color: seriesColors.first }]}
          xLabel="Sessions"
          yLabel="Outcome"
          horizontal
          categoryWidth={140}
          height={200}
        />
      )}
      summary={
        usage &&
        `Automatic lookups asked: ${formatCount(usage.lookupsRequested)}, answered: ${formatCount(
          usage.lookupsAnswered,
        )}. Links texted: ${formatCount(usage.linksSent)}.`
      }
    />
  );
}

function ByLanguage({ params, fileNameParts }: CardContext) {
  const query = useLanguages(params);
  return (
    <LanguagesCard
      title="Callers by language"
      description="The language of the link text each caller received."
      status={query}
      languages={query.data?.languages}
      fileNameParts={fileNameParts}
      range={params}
    />
  );
}

function Durations({ params, fileNameParts }: CardContext) {
  const query = useCaseDurations(params);
  const durations = query.data?.durations;
  const table: MetricsTable | undefined = durations && {
    columns: ['Duration', 'Sessions'],
    rows: durations.buckets.map((bucket) => [
      durationBucketLabel(bucket.fromMs, bucket.toMs),
      bucket.sessions,
    ]),
  };
  return (
    <MetricCard
      title="Case durations"
      description="Sessions that ended in the range, from start to end."
      status={query}
      table={table}
      empty={durations?.ended === 0}
      fileNameParts={fileNameParts}
      range={params}
      chart={() => (
        <BarsChart
          data={chartData(table!, ['duration', 'sessions'])}
          dataKey="duration"
          series={[{ name: 'sessions', label: 'Sessions', color: seriesColors.first }]}
          xLabel="Sessions"
          yLabel="Duration"
          horizontal
          categoryWidth={110}
        />
      )}
      summary={
        durations &&
        `${formatCount(durations.ended)} cases ended. Median ${formatMs(
          durations.p50Ms,
        )}, 90th percentile ${formatMs(durations.p90Ms)}, average ${formatMs(durations.averageMs)}.`
      }
    />
  );
}

const sources: LocateSource[] = ['lookup', 'link'];

function TimeToLocateCard({ params, fileNameParts }: CardContext) {
  const query = useTimeToLocate(params);
  const measure = query.data?.timeToLocate;
  let table: MetricsTable | undefined;
  if (measure) {
    const days = [...new Set(measure.byDay.map((entry) => entry.day))];
    const of = (day: string, source: LocateSource) =>
      measure.byDay.find((entry) => entry.day === day && entry.source === source);
    table = {
      columns: [
        'Day',
        'Lookup: located',
        'Lookup: median (s)',
        'Lookup: 90th percentile (s)',
        'Link: located',
        'Link: median (s)',
        'Link: 90th percentile (s)',
      ],
      rows: days.map((day) => [
        day,
        ...sources.flatMap((source) => {
          const entry = of(day, source);
          return [
            entry?.located ?? 0,
            toSeconds(entry?.p50Ms ?? null),
            toSeconds(entry?.p90Ms ?? null),
          ];
        }),
      ]),
    };
  }
  const overall = (source: LocateSource) =>
    measure?.overall.find((entry) => entry.source === source);
  return (
    <MetricCard
      title="Time to locate"
      description="From the locate request to the first fix on the dispatcher’s map: median and 90th percentile per day, by source."
      status={query}
      table={table}
      empty={measure?.combined.located === 0}
      fileNameParts={fileNameParts}
      range={params}
      wide
      chart={() => (
        <LinesChart
          data={chartData(table!, [
            'day',
            'lookupLocated',
            'lookupP50',
            'lookupP90',
            'linkLocated',
            'linkP50',
            'linkP90',
          ])}
          dataKey="day"
          series={[
            { name: 'lookupP50', label: 'Lookup, median', color: seriesColors.first },
            { name: 'lookupP90', label: 'Lookup, 90th percentile', color: seriesColors.fourth },
            { name: 'linkP50', label: 'Text link, median', color: seriesColors.second },
            { name: 'linkP90', label: 'Text link, 90th percentile', color: seriesColors.third },
          ]}
          xLabel="Day"
          yLabel="Seconds"
          tickFormatter={shortDay}
          valueFormatter={(value) => `${value} s`}
        />
      )}
      summary={
        measure && (
          <>
            Over {formatCount(measure.combined.located)} located sessions: median{' '}
            {formatMs(measure.combined.p50Ms)}, 90th percentile {formatMs(measure.combined.p90Ms)}.{' '}
            {sources
              .map((source) => {
                const entry = overall(source);
                return `${sourceLabels[source]}: ${formatCount(entry?.located ?? 0)} located, median ${formatMs(
                  entry?.p50Ms ?? null,
                )}.`;
              })
              .join(' ')}
          </>
        )
      }
    />
  );
}

const funnelSteps = [
  ['textsSent', 'Texts sent'],
  ['delivered', 'Delivered'],
  ['linkOpened', 'Link opened'],
  ['promptShown', 'Location prompt shown'],
  ['shared', 'Shared'],
  ['denied', 'Denied'],
  ['neverAnswered', 'Never answered'],
] as const;

function Funnel({ params, fileNameParts }: CardContext) {
  const query = useLinkFunnel(params);
  const funnel = query.data?.funnel;
  const total: MetricsTable | undefined = funnel && {
    columns: ['Step', 'Callers', 'Share of texts sent'],
    rows: funnelSteps.map(([key, label]) => [
      label,
      funnel.total[key],
      percentOf(funnel.total[key], funnel.total.textsSent),
    ]),
  };
  const byLanguage: MetricsTable | undefined = funnel && {
    columns: ['Language', ...funnelSteps.map(([, label]) => label)],
    rows: funnel.byLanguage.map((entry) => [
      languageLabels[entry.language],
      ...funnelSteps.map(([key]) => entry[key]),
    ]),
  };
  const byDay: MetricsTable | undefined = funnel && {
    columns: ['Day', 'Texts sent', 'Link opened', 'Shared', 'Denied'],
    rows: funnel.byDay.map((day) => [
      day.day,
      day.textsSent,
      day.linkOpened,
      day.shared,
      day.denied,
    ]),
  };
  const empty = funnel !== undefined && funnelSteps.every(([key]) => funnel.total[key] === 0);
  return (
    <>
      <MetricCard
        title="Link funnel"
        description="Where texted callers are lost, step by step (one step per caller)."
        status={query}
        table={total}
        empty={empty}
        emptyText="No texts in this range."
        fileNameParts={fileNameParts}
        range={params}
        chart={() => (
          <BarsChart
            data={funnelSteps.map(([key, label]) => ({ step: label, callers: funnel!.total[key] }))}
            dataKey="step"
            series={[{ name: 'callers', label: 'Callers', color: seriesColors.first }]}
            xLabel="Callers"
            yLabel="Step"
            horizontal
            categoryWidth={170}
          />
        )}
      />
      <MetricCard
        title="Link funnel per day"
        description="By the day the text was sent."
        status={query}
        table={byDay}
        empty={empty}
        emptyText="No texts in this range."
        fileNameParts={fileNameParts}
        range={params}
        chart={() => (
          <TimeSeriesChart
            data={chartData(byDay!, ['day', 'textsSent', 'linkOpened', 'shared', 'denied'])}
            dataKey="day"
            series={[
              { name: 'textsSent', label: 'Texts sent', color: seriesColors.first },
              { name: 'linkOpened', label: 'Link opened', color: seriesColors.third },
              { name: 'shared', label: 'Shared', color: seriesColors.second },
              { name: 'denied', label: 'Denied', color: seriesColors.fourth },
            ]}
            xLabel="Day"
            yLabel="Callers"
            tickFormatter={shortDay}
          />
        )}
      />
      <MetricCard
        title="Link funnel by language"
        description="The same steps for each language of the link text."
        status={query}
        table={byLanguage}
        empty={empty}
        emptyText="No texts in this range."
        fileNameParts={fileNameParts}
        range={params}
        wide
      />
    </>
  );
}

function Accuracy({ params, fileNameParts }: CardContext) {
  const query = useAccuracy(params);
  const accuracy = query.data?.accuracy;
  const table: MetricsTable | undefined = accuracy && {
    columns: ['Uncertainty radius', 'First fix', 'Best fix'],
    rows: accuracy.firstFix.map((bucket, index) => [
      radiusBucketLabel(bucket.fromM, bucket.toM),
      bucket.sessions,
      accuracy.bestFix[index]?.sessions ?? 0,
    ]),
  };
  return (
    <MetricCard
      title="Accuracy"
      description="The uncertainty radius of each located session’s first fix, and the best it reached."
      status={query}
      table={table}
      empty={allZero(table)}
      fileNameParts={fileNameParts}
      range={params}
      chart={() => (
        <BarsChart
          data={chartData(table!, ['radius', 'first', 'best'])}
          dataKey="radius"
          series={[
            { name: 'first', label: 'First fix', color: seriesColors.first },
            { name: 'best', label: 'Best fix', color: seriesColors.second },
          ]}
          xLabel="Sessions"
          yLabel="Uncertainty radius"
          horizontal
          categoryWidth={130}
          height={340}
        />
      )}
      summary={
        accuracy &&
        `Median radius: first fix ${
          accuracy.firstFixP50M === null ? '—' : `${formatCount(accuracy.firstFixP50M)} m`
        }, best fix ${accuracy.bestFixP50M === null ? '—' : `${formatCount(accuracy.bestFixP50M)} m`}.`
      }
    />
  );
}

function BusiestHours({ params, fileNameParts }: CardContext) {
  const query = useCalendar(params);
  return (
    <BusiestHoursCard
      title="Busiest hours"
      description={`Sessions started per weekday (rows) and hour of the day (columns), in ${
        query.data?.timeZone ?? 'the team’s time zone'
      }.`}
      status={query}
      cells={query.data?.cells}
      fileNameParts={fileNameParts}
      range={params}
      wide
    />
  );
}

function SignIns({ params, fileNameParts }: CardContext) {
  const query = useTotalLogins(params);
  const logins = query.data?.logins;
  const table: MetricsTable | undefined = logins && {
    columns: ['Day', 'Signed in', 'Failed'],
    rows: logins.byDay.map((day) => [day.day, day.succeeded, day.failed]),
  };
  return (
    <MetricCard
      title="Sign-ins per day"
      description="Sign-ins of the team’s members, and attempts that failed."
      status={query}
      table={table}
      empty={allZero(table)}
      emptyText="No sign-ins in this range."
      fileNameParts={fileNameParts}
      range={params}
      wide
      chart={() => (
        <TimeSeriesChart
          data={chartData(table!, ['day', 'succeeded', 'failed'])}
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
        logins &&
        `${formatCount(logins.succeeded)} sign-ins by ${formatCount(logins.users)} people; ${formatCount(
          logins.failed,
        )} failed.`
      }
    />
  );
}

interface PersonRow {
  userId: string;
  name: string;
  sessions: number;
  located: number;
  timeToLocateP50Ms: number | null;
  signIns: number;
  failedSignIns: number;
  lastSignInAt: string | null;
}

function People({ params, fileNameParts }: CardContext) {
  const searches = useUserSearchTotals(params);
  const logins = useUserLogins(params);
  const [open, setOpen] = useState<{ userId: string; name: string } | null>(null);
  let people: PersonRow[] | undefined;
  if (searches.data && logins.data) {
    const byId = new Map<string, PersonRow>();
    // Most sessions first (the API's order), then the members who started none, by name.
    for (const user of searches.data.users)
      byId.set(user.userId, {
        ...user,
        signIns: 0,
        failedSignIns: 0,
        lastSignInAt: null,
      });
    const idle = logins.data.logins.users
      .filter((user) => !byId.has(user.userId))
      .sort((a, b) => a.name.localeCompare(b.name));
    for (const user of idle)
      byId.set(user.userId, {
        userId: user.userId,
        name: user.name,
        sessions: 0,
        located: 0,
        timeToLocateP50Ms: null,
        signIns: 0,
        failedSignIns: 0,
        lastSignInAt: null,
      });
    for (const user of logins.data.logins.users) {
      const row = byId.get(user.userId)!;
      row.signIns = user.succeeded;
      row.failedSignIns = user.failed;
      row.lastSignInAt = user.lastSignInAt;
    }
    people = [...byId.values()];
  }
  const table: MetricsTable | undefined = people && {
    columns: [
      'Name',
      'Sessions',
      'Located',
      'Median time to locate (s)',
      'Sign-ins',
      'Failed sign-ins',
      'Last sign-in (UTC)',
    ],
    rows: people.map((person) => [
      person.name,
      person.sessions,
      person.located,
      toSeconds(person.timeToLocateP50Ms),
      person.signIns,
      person.failedSignIns,
      person.lastSignInAt === null ? null : person.lastSignInAt.slice(0, 16).replace('T', ' '),
    ]),
  };
  const status = {
    isPending: searches.isPending || logins.isPending,
    isError: searches.isError || logins.isError,
    error: searches.error ?? logins.error,
  };
  return (
    <>
      <MetricCard
        title="Dispatchers"
        description="Each member’s sessions, time to locate and sign-ins. Open a name for that person’s own metrics."
        status={status}
        table={table}
        empty={people?.length === 0}
        emptyText="The team has no members."
        fileNameParts={fileNameParts}
        range={params}
        wide
        firstCell={(index) => {
          const person = people![index]!;
          return (
            <UnstyledButton
              onClick={() => setOpen({ userId: person.userId, name: person.name })}
              fw={600}
              c="var(--mantine-color-anchor)"
              td="underline"
              aria-haspopup="dialog"
            >
              {person.name}
            </UnstyledButton>
          );
        }}
      />
      <UserPanel
        user={open}
        range={params}
        fileNameParts={fileNameParts}
        onClose={() => setOpen(null)}
      />
    </>
  );
}

/** Every chart and table of one team, for one range: /admin/metrics and /admin/metrics/{id}. */
export function TeamMetrics({ params, teamName }: TeamMetricsProps) {
  const context: CardContext = { params, fileNameParts: [teamName] };
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" className="locus-metrics-grid">
      <Totals {...context} />
      <PerDay {...context} />
      <PerMonth {...context} />
      <BySource {...context} />
      <ByLanguage {...context} />
      <TimeToLocateCard {...context} />
      <Durations {...context} />
      <Accuracy {...context} />
      <Funnel {...context} />
      <ChatCard {...context} />
      <BusiestHours {...context} />
      <SignIns {...context} />
      <People {...context} />
      <SessionsCard {...context} />
    </SimpleGrid>
  );
}
