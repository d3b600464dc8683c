import { AreaChart, BarChart, LineChart, MatrixChart } from '@mantine/charts';
import type { MantineColor } from '@mantine/core';
import { formatCount, hourLabels, weekdayHour, weekdayLabels } from './format';

/*
 * The chart kinds of the metrics screens, on Mantine Charts (Recharts). Every chart has axis
 * labels and, with more than one series, a legend; none animates (printing and screenshots catch
 * them whole, and nothing moves for people who asked for less motion). Recharts' keyboard layer
 * is off: the chart is hidden from assistive technology, which reads the card's table instead.
 */

export interface ChartSeries {
  /** The key of the value in each datum. */
  name: string;
  label: string;
  color: MantineColor;
}

/** Colours that stay apart for common colour blindness and keep 3:1 on white and on dark. */
export const seriesColors = {
  first: 'navy.5',
  second: 'orange.7',
  third: 'teal.7',
  fourth: 'grape.6',
} as const;

const chartHeight = 260;

const countFormatter = (value: number) => formatCount(value);

interface CartesianProps {
  data: Record<string, string | number | null>[];
  /** The key of the category (a day, a bucket). */
  dataKey: string;
  series: ChartSeries[];
  xLabel: string;
  yLabel: string;
  /** How the category axis writes its ticks (`Nov 3` for a day). */
  tickFormatter?: (value: string) => string;
  valueFormatter?: (value: number) => string;
  height?: number;
}

const common = (props: CartesianProps) => ({
  h: props.height ?? chartHeight,
  data: props.data,
  dataKey: props.dataKey,
  series: props.series,
  withLegend: props.series.length > 1,
  // In the order of the series (Recharts sorts the legend by name otherwise).
  legendProps: { verticalAlign: 'top' as const, height: 36, itemSorter: null },
  accessibilityLayer: false,
  valueFormatter: props.valueFormatter ?? countFormatter,
  tooltipAnimationDuration: 0,
});

/** Bars side by side per category, or bars across (`horizontal`) for long category names. */
export function BarsChart(
  props: CartesianProps & { horizontal?: boolean; stacked?: boolean; categoryWidth?: number },
) {
  const horizontal = props.horizontal ?? false;
  const categoryAxis = {
    ...(props.tickFormatter ? { tickFormatter: props.tickFormatter } : {}),
    ...(horizontal ? { width: props.categoryWidth ?? 150 } : {}),
  };
  return (
    <BarChart
      {...common(props)}
      type={props.stacked ? 'stacked' : 'default'}
      orientation={horizontal ? 'vertical' : 'horizontal'}
      xAxisLabel={props.xLabel}
      yAxisLabel={props.yLabel}
      xAxisProps={horizontal ? { allowDecimals: false } : categoryAxis}
      yAxisProps={horizontal ? categoryAxis : { allowDecimals: false }}
      gridAxis={horizontal ? 'y' : 'x'}
      barProps={{ isAnimationActive: false }}
      maxBarWidth={48}
    />
  );
}

/**
 * Counts over days or months: bars while each can be told apart, an area over a long range
 * (a year of days would be 365 slivers).
 */
export function TimeSeriesChart(props: CartesianProps & { stacked?: boolean }) {
  if (props.data.length <= 62) return <BarsChart {...props} />;
  return (
    <AreaChart
      {...common(props)}
      type={props.stacked ? 'stacked' : 'default'}
      xAxisLabel={props.xLabel}
      yAxisLabel={props.yLabel}
      xAxisProps={props.tickFormatter ? { tickFormatter: props.tickFormatter } : undefined}
      yAxisProps={{ allowDecimals: false }}
      withDots={false}
      areaProps={{ isAnimationActive: false }}
      curveType="linear"
    />
  );
}

/** Measures that may be missing on some days (a median without sessions): lines with gaps. */
export function LinesChart(props: CartesianProps) {
  return (
    <LineChart
      {...common(props)}
      xAxisLabel={props.xLabel}
      yAxisLabel={props.yLabel}
      xAxisProps={props.tickFormatter ? { tickFormatter: props.tickFormatter } : undefined}
      connectNulls={false}
      curveType="linear"
      lineProps={{ isAnimationActive: false }}
    />
  );
}

/** Sessions per weekday (rows) and hour (columns): the busiest hours, darkest. */
export function WeekHourHeatmap({
  cells,
}: {
  cells: readonly { weekday: number; hour: number; sessions: number }[];
}) {
  const max = Math.max(1, ...cells.map((cell) => cell.sessions));
  return (
    <div style={{ overflowX: 'auto' }}>
      <MatrixChart
        data={cells.map((cell) => ({
          x: hourLabels[cell.hour]!,
          y: weekdayLabels[cell.weekday]!,
          value: cell.sessions,
        }))}
        xLabels={hourLabels}
        yLabels={[...weekdayLabels]}
        domain={[0, max]}
        colors={['navy.0', 'navy.2', 'navy.4', 'navy.6', 'navy.8']}
        cellSize={24}
        gap={2}
        withXLabels
        withYLabels
        xLabelsRotation={0}
        xLabelsHeight={24}
        yLabelsWidth={44}
        withLegend
        legendLabels={['Fewer sessions', 'More sessions']}
        withTooltip
        getTooltipLabel={(cell) => {
          const weekday = weekdayLabels.indexOf(cell.y as (typeof weekdayLabels)[number]);
          return `${weekdayHour(weekday, Number(cell.x))}: ${formatCount(cell.value ?? 0)} sessions`;
        }}
      />
    </div>
  );
}
