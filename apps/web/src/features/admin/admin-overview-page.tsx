// /admin: the school at a glance: people by role, this month's revenue per currency, the batches
// running today, and the way into each part of the admin area.
import { Anchor, Card, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconCalendarEvent } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { messages } from '@mooz/contract/messages';
import { ListEmpty, ListError, PageHeader } from '../../components/list-states';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api';
import { formatDate, formatPrice } from '../../lib/format';
import { translateServerMessage } from '../../lib/server-message';
import { useAdminOverview } from './use-admin';
import { dateTimeFormat } from '../../lib/intl';

function Figure({ label, value, link, testId }: { label: string; value: string | number; link?: string; testId: string }) {
  return (
    <Card withBorder radius="lg" p="lg" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {link ? (
          <Anchor component={Link} to={link} inherit>
            {label}
          </Anchor>
        ) : (
          label
        )}
      </Text>
      <Text fz={28} fw={700} mt={4}>
        {value}
      </Text>
    </Card>
  );
}

export function AdminOverviewPage() {
  const { t, i18n } = useTranslation();
  const overview = useAdminOverview();
  const locale = i18n.language;
  const month = dateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });

  return (
    <div data-testid="admin-overview-page">
      <PageHeader title={t('admin.overview.title')} description={t('admin.overview.subtitle')} />
      {overview.isPending ? (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} aria-busy="true" aria-label={t('common.loading')} data-testid="admin-overview-loading">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} height={96} radius="lg" />
          ))}
        </SimpleGrid>
      ) : overview.isError ? (
        <ListError
          testId="admin-overview-error"
          title={t('admin.overview.error')}
          message={translateServerMessage(t, messageOf(overview.error, messages.somethingWentWrong))}
          onRetry={() => void overview.refetch()}
          retrying={overview.isFetching}
        />
      ) : (
        (() => {
          const { users, revenue_this_month: revenue, active_batches: batches, counts } = overview.data.data;
          const monthName = month.format(new Date(`${overview.data.data.month}-01T00:00:00Z`));
          return (
            <Stack gap="xl">
              <section aria-labelledby="overview-people">
                <Title order={2} size="h4" mb="sm" id="overview-people">
                  {t('admin.overview.people')}
                </Title>
                <SimpleGrid cols={{ base: 2, md: 4 }}>
                  <Figure testId="overview-students" label={t('admin.overview.students')} value={users.student} link={paths.adminUsers} />
                  <Figure testId="overview-teachers" label={t('admin.overview.teachers')} value={users.teacher} />
                  <Figure testId="overview-admins" label={t('admin.overview.admins')} value={users.admin} />
                  <Figure testId="overview-deactivated" label={t('admin.overview.deactivated')} value={users.deactivated} />
                </SimpleGrid>
              </section>
              <section aria-labelledby="overview-money">
                <Title order={2} size="h4" mb="sm" id="overview-money">
                  {t('admin.overview.revenue', { month: monthName })}
                </Title>
                <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
                  {revenue.length ? (
                    revenue.map((r) => (
                      <Figure key={r.currency} testId={`overview-revenue-${r.currency}`} label={t('admin.overview.payments', { count: r.payments })} value={formatPrice(r.amount, r.currency, locale)} link={paths.adminPayments} />
                    ))
                  ) : (
                    <Figure testId="overview-revenue-none" label={t('admin.overview.payments', { count: 0 })} value="—" link={paths.adminPayments} />
                  )}
                </SimpleGrid>
              </section>
              <section aria-labelledby="overview-catalogue">
                <Title order={2} size="h4" mb="sm" id="overview-catalogue">
                  {t('admin.overview.catalogue')}
                </Title>
                <SimpleGrid cols={{ base: 1, xs: 3 }}>
                  <Figure testId="overview-courses" label={t('admin.overview.courses', { count: counts.published_courses })} value={counts.courses} link={paths.adminCourses} />
                  <Figure testId="overview-enrollments" label={t('admin.overview.enrollments')} value={counts.active_subscriptions} link={paths.adminPayments} />
                  <Figure testId="overview-refunds" label={t('admin.overview.refunds')} value={counts.refunded_subscriptions} />
                </SimpleGrid>
              </section>
              <section aria-labelledby="overview-batches">
                <Group justify="space-between" mb="sm">
                  <Title order={2} size="h4" id="overview-batches">
                    {t('admin.overview.activeBatches')}
                  </Title>
                </Group>
                {batches.length === 0 ? (
                  <ListEmpty icon={<IconCalendarEvent size={32} />} title={t('admin.overview.noBatches.title')} description={t('admin.overview.noBatches.description')} testId="overview-batches-empty" />
                ) : (
                  <Card withBorder radius="lg" p={0}>
                    <Table verticalSpacing="sm" horizontalSpacing="md" data-testid="overview-batches">
                      <Table.Tbody>
                        {batches.map((b) => (
                          <Table.Tr key={b.id}>
                            <Table.Td>
                              <Anchor component={Link} to={paths.course(b.course.id)} size="sm" fw={500}>
                                {b.course.name}
                              </Anchor>
                              <Text size="xs" c="dimmed">
                                {b.kind === 'weekdays' ? t('enroll.weekdaysBatch') : t('enroll.weekendsBatch')} ·{' '}
                                {t('myCourses.dates', { start: formatDate(b.start_date, locale), end: formatDate(b.end_date, locale) })}
                              </Text>
                            </Table.Td>
                            <Table.Td ta="end">
                              <Text size="sm">{t('admin.overview.seats', { taken: b.seats_taken, capacity: b.capacity })}</Text>
                            </Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Card>
                )}
              </section>
            </Stack>
          );
        })()
      )}
    </div>
  );
}
