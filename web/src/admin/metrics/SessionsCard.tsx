import { metricsLimits } from '@locus/contract';
import { formatCount } from './format';
import { MetricCard } from './MetricCard';
import { useHistoricalSearches, type TeamRange } from './queries';
import { sessionsTable } from './sessions-table';

/** The team's sessions of the range, newest first (get-historical-searches, at most 500). */
export function SessionsCard({
  params,
  fileNameParts,
}: {
  params: TeamRange;
  fileNameParts: readonly string[];
}) {
  const query = useHistoricalSearches(params);
  const answer = query.data;
  const cap = formatCount(metricsLimits.historicalSearchesMax);
  return (
    <MetricCard
      title="Sessions"
      description={`Each session started in the range, newest first: its dispatcher, the numbers asked for (but for their last four digits) and how the caller was located. Times in ${
        answer?.timeZone ?? 'the team’s time zone'
      }.`}
      status={query}
      table={answer && sessionsTable(answer.searches, answer.timeZone)}
      empty={answer?.searches.length === 0}
      fileNameParts={fileNameParts}
      range={params}
      wide
      tableMaxHeight={480}
      notice={
        answer?.truncated &&
        `Showing the newest ${cap} sessions of the range. The CSV holds the same ${cap}; pick a shorter range for the older ones.`
      }
    />
  );
}
