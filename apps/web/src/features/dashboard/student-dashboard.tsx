// The student's dashboard (contract "Dashboards"): hours learned (live and recordings), assignments
// done out of all with a ring, what is due, skills as bars, the week's trend, certificates to download
// or share, and the next class. A brand-new student sees an invitation to the catalogue instead of
// zeros and empty charts. A failure shows the server's message, translated, with a retry.
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/RingProgress.css';
import { Anchor, Button, Card, Group, Progress, RingProgress, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAward, IconBook2, IconCertificate, IconChecklist, IconClockHour4, IconDownload, IconShare, IconSparkles } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { messages } from '@mooz/contract/messages';
import type { StudentDashboard as StudentData } from '@mooz/contract/dashboards';
import { ListEmpty } from '../../components/list-states';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { absoluteUrl, assignmentsPath, formatCount, formatHours, formatMoment, formatPercent } from './format';
import { DashboardError, DashboardLoading, NextClassCard, Panel, StatCard } from './parts';
import { TrendChart } from './trend-chart';
import { useStudentDashboard } from './use-dashboards';
import classes from './dashboard.module.css';
import { dateTimeFormat } from '../../lib/intl';

const apiBase = (import.meta.env.VITE_API_URL as string | undefined) || window.location.origin;

/**
 * Nothing has happened yet: no time, no course bought (no skills, no course work), no certificate. A
 * trial may already open a class: then it is shown beside the invitation.
 */
function isBrandNew(data: StudentData): boolean {
  return (
    !(data.learning_stats.total_learning_hours > 0) &&
    data.learning_stats.assignments_total === 0 &&
    data.skills.length === 0 &&
    data.certificates.length === 0
  );
}

async function copyLink(link: string, done: string, failed: string) {
  try {
    await navigator.clipboard.writeText(link);
    notify.success(done);
  } catch {
    // No clipboard (an insecure page, a refused permission): the link itself, to copy by hand.
    notify.info(`${failed} ${link}`);
  }
}

function StudentDashboardView({ data }: { data: StudentData }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const stats = data.learning_stats;
  const share = stats.assignments_total > 0 ? Math.round((stats.assignments_completed / stats.assignments_total) * 100) : 0;

  if (isBrandNew(data)) {
    const invitation = (
      <ListEmpty
        testId="student-dashboard-empty"
        icon={<IconSparkles size={34} />}
        title={t('dashboard.student.emptyTitle')}
        description={t('dashboard.student.emptyDescription')}
        action={
          <Button component={Link} to={paths.courses} mt="sm" leftSection={<IconBook2 size={16} />} data-testid="browse-courses">
            {t('dashboard.student.browse')}
          </Button>
        }
      />
    );
    return data.next_class ? (
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        <div className={classes.wide}>{invitation}</div>
        <NextClassCard session={data.next_class} teaching={false} testId="next-class" />
      </SimpleGrid>
    ) : (
      invitation
    );
  }

  return (
    <Stack gap="lg" data-testid="student-dashboard">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
        <StatCard
          testId="stat-learning-hours"
          icon={<IconClockHour4 size={24} />}
          label={t('dashboard.student.totalHours')}
          value={formatHours(stats.total_learning_hours, locale)}
          raw={stats.total_learning_hours}
          hint={t('dashboard.student.split', { live: formatHours(data.live_hours, locale), recordings: formatHours(data.recording_hours, locale) })}
        />
        <Card radius="lg" withBorder p="lg" data-testid="stat-assignments">
          <Group gap="md" wrap="nowrap">
            <RingProgress
              size={88}
              thickness={9}
              roundCaps
              // A round cap on an empty ring would draw a dot.
              sections={share > 0 ? [{ value: share, color: 'mooz' }] : []}
              label={
                <Text ta="center" size="xs" fw={700}>
                  {formatPercent(share, locale)}
                </Text>
              }
              aria-hidden="true"
            />
            {/* A term and its figure, as StatCard draws them. */}
            <dl className={classes.statText}>
              <Text component="dt" size="sm" c="dimmed" fw={500}>
                {t('dashboard.student.assignments')}
              </Text>
              <Text component="dd" fz={28} fw={700} lh={1.2} data-testid="stat-assignments-value">
                {t('dashboard.student.assignmentsValue', { done: formatCount(stats.assignments_completed, locale), total: formatCount(stats.assignments_total, locale) })}
              </Text>
              <Text component="dd" size="xs" c="dimmed" mt={4}>
                {t('dashboard.student.assignmentsHint', { count: stats.assignments_completed, done: formatCount(stats.assignments_completed, locale), total: formatCount(stats.assignments_total, locale) })}
              </Text>
              {/* Graded polls of the classes, beside the assignments. */}
              {data.quizzes.total > 0 && (
                <Text component="dd" size="xs" c="dimmed" mt={2} data-testid="stat-quizzes">
                  {t('dashboard.student.quizzes', {
                    count: data.quizzes.total,
                    right: formatCount(data.quizzes.correct, locale),
                    answered: formatCount(data.quizzes.answered, locale),
                    total: formatCount(data.quizzes.total, locale),
                  })}
                </Text>
              )}
            </dl>
          </Group>
        </Card>
        <NextClassCard session={data.next_class} teaching={false} testId="next-class" />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <TrendChart
          days={data.weekly_learning_trends}
          title={t('dashboard.student.trendTitle')}
          emptyText={t('dashboard.student.trendEmpty')}
          testId="learning-trend"
        />
        <Panel title={t('dashboard.student.skills')} testId="skills">
          {data.skills.length === 0 ? (
            <Text c="dimmed" size="sm">
              {t('dashboard.student.skillsEmpty')}
            </Text>
          ) : (
            <Stack gap="md">
              {data.skills.map((skill) => (
                <div key={skill.name} data-testid="skill">
                  <Group justify="space-between" gap="xs" mb={6} wrap="nowrap">
                    <Text size="sm" fw={500} className={classes.wrapAnywhere} id={`skill-${skill.name}`}>
                      {skill.name}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {formatPercent(skill.level, locale)}
                    </Text>
                  </Group>
                  <Progress
                    value={skill.level}
                    size="lg"
                    radius="xl"
                    aria-label={t('dashboard.student.skillLevel', { name: skill.name, level: formatPercent(skill.level, locale) })}
                  />
                </div>
              ))}
            </Stack>
          )}
        </Panel>
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Panel title={t('dashboard.student.due')} testId="assignments-due">
          {data.assignments_due.length === 0 ? (
            <Group gap="sm" c="dimmed">
              <IconChecklist size={20} aria-hidden="true" />
              <Text size="sm">{t('dashboard.student.dueNone')}</Text>
            </Group>
          ) : (
            <Stack gap="sm" component="ul" className={classes.list}>
              {data.assignments_due.map((item) => (
                <li key={item.id} className={classes.listItem} data-testid="assignment-due">
                  <Anchor component={Link} to={assignmentsPath(item.course_id)} fw={600} className={classes.wrapAnywhere}>
                    {item.title}
                  </Anchor>
                  <Text size="sm" c="dimmed" className={classes.wrapAnywhere}>
                    {item.course_name}
                    {' · '}
                    {item.due_at ? (
                      <time dateTime={item.due_at} className={classes.nowrap}>{t('dashboard.student.dueAt', { when: formatMoment(item.due_at, locale) })}</time>
                    ) : (
                      t('dashboard.student.noDueDate')
                    )}
                  </Text>
                </li>
              ))}
            </Stack>
          )}
        </Panel>
        <Panel title={t('dashboard.student.certificates')} testId="certificates">
          {data.certificates.length === 0 ? (
            <Group gap="sm" c="dimmed" wrap="nowrap">
              <IconAward size={20} aria-hidden="true" />
              <Text size="sm">{t('dashboard.student.certificatesNone')}</Text>
            </Group>
          ) : (
            <Stack gap="sm" component="ul" className={classes.list}>
              {data.certificates.map((certificate) => (
                <li key={certificate.id} className={classes.listItem} data-testid="certificate">
                  <Group justify="space-between" gap="sm">
                    <Group gap="sm" wrap="nowrap" className={classes.certificateName}>
                      <ThemeIcon variant="light" color="yellow" radius="xl" aria-hidden="true">
                        <IconCertificate size={18} />
                      </ThemeIcon>
                      <div className={classes.statText}>
                        <Anchor component={Link} to={`/certificates/${encodeURIComponent(certificate.id)}`} fw={600} className={classes.wrapAnywhere}>
                          {certificate.course_name}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          <time dateTime={certificate.issued_at} className={classes.nowrap}>
                            {t('dashboard.student.issuedOn', { date: dateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(certificate.issued_at)) })}
                          </time>
                        </Text>
                      </div>
                    </Group>
                    <Group gap="xs">
                      <Button
                        component="a"
                        href={absoluteUrl(certificate.url, apiBase)}
                        download
                        size="xs"
                        variant="light"
                        leftSection={<IconDownload size={14} />}
                        aria-label={t('dashboard.student.downloadNamed', { course: certificate.course_name })}
                        data-testid="certificate-download"
                      >
                        {t('dashboard.student.download')}
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        leftSection={<IconShare size={14} />}
                        aria-label={t('dashboard.student.shareNamed', { course: certificate.course_name })}
                        onClick={() => copyLink(absoluteUrl(certificate.verify_url, window.location.origin), t('dashboard.student.linkCopied'), t('dashboard.student.copyByHand'))}
                        data-testid="certificate-share"
                      >
                        {t('dashboard.student.share')}
                      </Button>
                    </Group>
                  </Group>
                </li>
              ))}
            </Stack>
          )}
        </Panel>
      </SimpleGrid>
    </Stack>
  );
}

/** Loads and shows a student's dashboard: the caller's own, or (admins) a chosen student's or the platform's. */
export function StudentDashboard({ studentId = null }: { studentId?: number | null }) {
  const { t } = useTranslation();
  const query = useStudentDashboard(studentId);
  if (query.isPending) return <DashboardLoading testId="student-dashboard-loading" />;
  if (query.isError) {
    return (
      <DashboardError
        testId="student-dashboard-error"
        title={t('dashboard.student.errorTitle')}
        message={translateServerMessage(t, messageOf(query.error, messages.unexpected))}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  return <StudentDashboardView data={query.data} />;
}
