// One course as the catalogue and "my courses" show it: teacher, description, skills, schedule, price.
import type { ReactNode } from 'react';
import { Badge, Box, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconCalendarEvent, IconClock, IconSchool, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Course } from '@mooz/contract/courses';
import { paths } from '../../config/paths';
import { formatDate, formatPrice } from '../../lib/format';
import { kindSchedules, nextBatchStart } from './batch-schedule';
import classes from './courses.module.css';

function Fact({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Group gap={8} wrap="nowrap" align="flex-start" className={classes.facts}>
      <Box mt={2}>{icon}</Box>
      <Text size="sm">{children}</Text>
    </Group>
  );
}

export function CourseCard({ course, footer, details, badge }: { course: Course; footer?: ReactNode; details?: ReactNode; badge?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const nextBatch = nextBatchStart(course.batches);
  const weekdays = kindSchedules(course.batches, 'weekdays', locale);
  const weekends = kindSchedules(course.batches, 'weekends', locale);

  return (
    <Card radius="lg" withBorder p={0} className={classes.card} data-testid="course-card" data-course-id={course.id}>
      <div className={classes.cover} data-variant={course.id % 3}>
        {course.image_url && <img src={course.image_url} alt="" className={classes.coverImage} />}
        <IconSchool size={120} stroke={1.2} className={classes.coverIcon} aria-hidden="true" />
        <Group gap={6} style={{ position: 'relative' }}>
          <Badge variant="white" color="dark" size="lg">
            {formatPrice(course.price, course.currency, locale)}
          </Badge>
          {badge}
        </Group>
      </div>
      <Stack gap="sm" p="lg" style={{ flex: 1 }}>
        <div>
          <Title order={2} size="h4" lineClamp={2}>
            <Link to={paths.course(course.id)} style={{ color: 'inherit', textDecoration: 'none' }}>
              {course.name}
            </Link>
          </Title>
          <Fact icon={<IconUser size={15} />}>{t('course.teacher', { name: course.teacher.name })}</Fact>
        </div>
        <Text size="sm" lineClamp={3}>
          {course.description}
        </Text>
        {course.skills.length > 0 && (
          <Group gap={6} aria-label={t('courses.skills')}>
            {course.skills.map((skill) => (
              <Badge key={skill} variant="light" radius="sm" tt="none">
                {skill}
              </Badge>
            ))}
          </Group>
        )}
        {details ?? (
          <Stack gap={4}>
            <Fact icon={<IconCalendarEvent size={15} />}>
              <span data-testid="course-duration">{t('course.duration', { count: course.duration_weeks })}</span>
              {' · '}
              {nextBatch ? t('courses.nextBatch', { date: formatDate(nextBatch, locale) }) : t('courses.noUpcomingBatch')}
            </Fact>
            {weekdays && <Fact icon={<IconClock size={15} />}>{t('courses.weekdayTimes', { times: weekdays })}</Fact>}
            {weekends && <Fact icon={<IconClock size={15} />}>{t('courses.weekendTimes', { times: weekends })}</Fact>}
          </Stack>
        )}
        {footer && <div className={classes.footer}>{footer}</div>}
      </Stack>
    </Card>
  );
}
