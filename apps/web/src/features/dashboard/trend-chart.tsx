// The week as bars (@mantine/charts' BarChart): seven local days, oldest first, today last. The SVG is
// hidden from assistive technology, which reads a visually hidden table of the same seven values
// instead; right to left, the days run from the right and the axis sits on the right.
import '@mantine/core/styles/Table.css';
import { lazy, Suspense } from 'react';
import { Group, Skeleton, Table, Text, useDirection, VisuallyHidden } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { dayHours } from '@mooz/contract/dashboards';
import { formatDay, formatHours, formatInUnit, inUnit, trendUnit } from './format';
import { Panel } from './parts';
import classes from './dashboard.module.css';
import { afterFirstScreen } from '../../lib/first-screen';
import { numberFormat } from '../../lib/intl';
import { useNearScreen } from '../../lib/use-near-screen';

type Day = z.infer<typeof dayHours>;

// The chart after the first screen (lib/first-screen.ts), and once scrolled near (lib/use-near-screen.ts):
// the cards come first.
const WeekBars = lazy(() => afterFirstScreen(() => import('./week-bars')));

export function TrendChart({ days, title, emptyText, testId }: { days: Day[]; title: string; emptyText: string; testId: string }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const { dir } = useDirection();
  const chartUnit = trendUnit(days);
  const data = days.map((day) => ({ day: formatDay(day.date, locale, 'short'), value: inUnit(day.hours, chartUnit) }));
  const empty = days.every((day) => !(day.hours > 0));
  const seriesLabel = chartUnit === 'minute' ? t('dashboard.trend.minutes') : t('dashboard.trend.hours');
  const total = days.reduce((sum, day) => sum + (day.hours > 0 ? day.hours : 0), 0);
  const [chartRef, chartNear] = useNearScreen<HTMLDivElement>();
  const placeholder = <Skeleton height={220} radius="md" />;

  return (
    <Panel
      title={title}
      action={
        <Text size="sm" c="dimmed" data-testid={`${testId}-total`}>
          {t('dashboard.trend.total', { value: formatHours(total, locale) })}
        </Text>
      }
      testId={testId}
    >
      {empty ? (
        <Group gap="sm" className={classes.emptyChart} justify="center" data-testid={`${testId}-empty`}>
          <IconChartBar size={22} aria-hidden="true" />
          <Text c="dimmed" size="sm">
            {emptyText}
          </Text>
        </Group>
      ) : (
        <div ref={chartRef} aria-hidden="true" className={classes.chart}>
          <Text size="xs" c="dimmed" mb={4} className={classes.chartUnit}>
            {seriesLabel}
          </Text>
          {chartNear ? (
            <Suspense fallback={placeholder}>
              <WeekBars
                data={data}
                label={seriesLabel}
                rtl={dir === 'rtl'}
                integers={chartUnit === 'minute' && data.every((day) => Number.isInteger(day.value))}
                format={(value) => formatInUnit(value, chartUnit, locale)}
                tick={(value) => numberFormat(locale, { maximumFractionDigits: 2 }).format(value)}
              />
            </Suspense>
          ) : (
            placeholder
          )}
        </div>
      )}
      <VisuallyHidden>
        <Table data-testid={`${testId}-table`}>
          <caption>{t('dashboard.trend.caption', { title })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('dashboard.trend.day')}</th>
              <th scope="col">{t('dashboard.trend.time')}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date} data-date={day.date} data-hours={day.hours}>
                <th scope="row">{formatDay(day.date, locale, 'long')}</th>
                <td>{formatHours(day.hours, locale)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </VisuallyHidden>
    </Panel>
  );
}
