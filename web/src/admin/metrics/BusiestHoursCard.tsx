import { WeekHourHeatmap } from './charts';
import type { MetricsTable } from './csv';
import { weekdayLabels } from './format';
import { MetricCard, type MetricCardProps } from './MetricCard';

export interface HourCell {
  weekday: number;
  hour: number;
  sessions: number;
}

/**
 * Sessions per weekday and hour as a heat map, and as a table of weekdays (rows) by hours
 * (columns): a team's (get-case-time-interval) or one user's (get-user-calendar-totals).
 */
export function BusiestHoursCard({
  cells,
  ...card
}: Omit<MetricCardProps, 'table' | 'chart' | 'empty'> & {
  cells: readonly HourCell[] | undefined;
}) {
  const table: MetricsTable | undefined = cells && {
    columns: ['Weekday', ...Array.from({ length: 24 }, (_, hour) => `${hour}:00`)],
    rows: weekdayLabels.map((label, weekday) => [
      label,
      ...Array.from(
        { length: 24 },
        (_, hour) =>
          cells.find((cell) => cell.weekday === weekday && cell.hour === hour)?.sessions ?? 0,
      ),
    ]),
  };
  return (
    <MetricCard
      {...card}
      table={table}
      empty={cells?.every((cell) => cell.sessions === 0)}
      chart={() => <WeekHourHeatmap cells={cells!} />}
    />
  );
}
