// The trend's bars, in a chunk of their own: recharts is most of @mantine/charts' weight, and the
// dashboard is the first screen after login, so its cards come first and the chart follows
// (trend-chart.tsx loads this lazily).
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';

export interface WeekBarsProps {
  data: { day: string; value: number }[];
  label: string;
  rtl: boolean;
  integers: boolean;
  /** The tooltip's text of a value ("12 min"). */
  format(value: number): string;
  /** An axis tick: the number alone, the unit being written above the chart (trend-chart.tsx). */
  tick(value: number): string;
}

export default function WeekBars({ data, label, rtl, integers, format, tick }: WeekBarsProps) {
  return (
    <BarChart
      h={220}
      data={data}
      dataKey="day"
      series={[{ name: 'value', label, color: 'mooz.6' }]}
      valueFormatter={format}
      tickLine="y"
      gridAxis="y"
      withTooltip
      xAxisProps={{ reversed: rtl }}
      yAxisProps={{ orientation: rtl ? 'right' : 'left', width: 48, allowDecimals: !integers, tickFormatter: tick, domain: [0, 'auto'] }}
      barProps={{ radius: [6, 6, 0, 0] }}
    />
  );
}
