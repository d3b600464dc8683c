import type { SmsLanguage } from '@locus/contract';
import { BarsChart, seriesColors } from './charts';
import type { MetricsTable } from './csv';
import { languageLabels } from './format';
import { MetricCard, type MetricCardProps } from './MetricCard';

export interface LanguageRow {
  language: SmsLanguage;
  callers: number;
  located: number;
}

/** Callers texted per language and how many shared: a team's (get-languages) or one user's. */
export function LanguagesCard({
  languages,
  chartHeight,
  ...card
}: Omit<MetricCardProps, 'table' | 'chart' | 'empty' | 'emptyText'> & {
  languages: readonly LanguageRow[] | undefined;
  chartHeight?: number;
}) {
  const table: MetricsTable | undefined = languages && {
    columns: ['Language', 'Callers texted', 'Located'],
    rows: languages.map((entry) => [languageLabels[entry.language], entry.callers, entry.located]),
  };
  return (
    <MetricCard
      {...card}
      table={table}
      empty={languages?.every((entry) => entry.callers === 0 && entry.located === 0)}
      emptyText="No texts in this range."
      chart={() => (
        <BarsChart
          data={languages!.map((entry) => ({
            language: languageLabels[entry.language],
            callers: entry.callers,
            located: entry.located,
          }))}
          dataKey="language"
          series={[
            { name: 'callers', label: 'Callers texted', color: seriesColors.first },
            { name: 'located', label: 'Located', color: seriesColors.second },
          ]}
          xLabel="Language"
          yLabel="Callers"
          height={chartHeight}
        />
      )}
    />
  );
}
