// Enrollment, step one: the batch schedule: weekdays or weekends, a batch start date (the
// end date follows from the course length), and the time, or the Saturday and Sunday times.
import { Alert, Button, Group, Modal, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { IconCalendarEvent, IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { batchEndDate, type BatchKind, type Course } from '@mooz/contract/courses';
import { createOrderBody, type CreateOrderBody } from '@mooz/contract/payments';
import { useAuthStore } from '../../lib/auth-store';
import { formatClock, formatDate, formatPrice, todayUtc } from '../../lib/format';

interface ScheduleValues {
  batch: BatchKind;
  start_date: string;
  time: string;
  saturday_time: string;
  sunday_time: string;
}

export function openBatchDates(course: Pick<Course, 'batch_start_dates'>, today = todayUtc()): string[] {
  return course.batch_start_dates.filter((date) => date >= today);
}

export function toOrderBody(course: Course, values: ScheduleValues): CreateOrderBody {
  const base = {
    course_id: course.id,
    batch: values.batch,
    start_date: values.start_date,
    end_date: values.start_date ? batchEndDate(values.start_date, course.duration_weeks) : '',
  };
  return values.batch === 'weekdays'
    ? { ...base, time: values.time }
    : { ...base, saturday_time: values.saturday_time, sunday_time: values.sunday_time };
}

const validateOrder = zod4Resolver(createOrderBody, { errorPriority: 'first' });

interface EnrollModalProps {
  course: Course | null;
  busy: boolean;
  onClose(): void;
  onSubmit(course: Course, body: CreateOrderBody): Promise<{ ok: boolean; errors?: Record<string, string[]> }>;
}

export function EnrollModal({ course, busy, onClose, onSubmit }: EnrollModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={course !== null}
      onClose={onClose}
      title={<Text fw={700}>{course ? t('enroll.title', { name: course.name }) : ''}</Text>}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      size="lg"
      centered
      data-testid="enroll-modal"
    >
      {course && <ScheduleForm key={course.id} course={course} busy={busy} onSubmit={onSubmit} />}
    </Modal>
  );
}

function ScheduleForm({ course, busy, onSubmit }: { course: Course; busy: boolean; onSubmit: EnrollModalProps['onSubmit'] }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const dates = openBatchDates(course);
  const hasWeekdays = course.weekday_times.length > 0;
  const hasWeekends = course.weekend_times.length > 0;
  // The contract ends a trial at the first purchase (after it, only bought courses' sessions are
  // listed), so a student in trial is told before they pay, not surprised after.
  const inTrial = useAuthStore((state) => state.trial?.is_trial === true);

  const form = useForm<ScheduleValues>({
    initialValues: {
      batch: hasWeekdays ? 'weekdays' : 'weekends',
      start_date: dates[0] ?? '',
      time: course.weekday_times[0] ?? '',
      saturday_time: course.weekend_times[0] ?? '',
      sunday_time: course.weekend_times[0] ?? '',
    },
    // The contract's order body: a weekday batch sends its time, a weekend batch its two times, and
    // each field that would be refused is one to choose.
    validate: (values) => {
      const wrong = Object.keys(validateOrder(toOrderBody(course, values)));
      return Object.fromEntries(wrong.filter((field) => field in values).map((field) => [field, t('enroll.required')]));
    },
  });
  const { values } = form;
  const endDate = values.start_date ? batchEndDate(values.start_date, course.duration_weeks) : null;
  const timeOptions = (times: string[]) =>
    times.map((time) => ({ value: time, label: formatClock(time, locale, values.start_date || undefined) }));

  if (!dates.length) {
    return (
      <Alert color="orange" icon={<IconInfoCircle size={18} />} data-testid="enroll-no-batches">
        {t('enroll.noBatches')}
      </Alert>
    );
  }

  return (
    <form
      onSubmit={form.onSubmit(async (submitted) => {
        const result = await onSubmit(course, toOrderBody(course, submitted));
        if (!result.ok && result.errors) {
          form.setErrors(Object.fromEntries(Object.entries(result.errors).map(([field, problems]) => [field, problems.join(' ')])));
        }
      })}
      noValidate
    >
      <Stack gap="md">
        {inTrial && (
          <Alert color="orange" icon={<IconInfoCircle size={18} />} data-testid="enroll-ends-trial">
            {t('enroll.endsTrial')}
          </Alert>
        )}
        <div>
          <Text size="sm" fw={500} mb={6} id="enroll-batch-label">
            {t('enroll.batch')}
          </Text>
          <SegmentedControl
            fullWidth
            aria-labelledby="enroll-batch-label"
            data={[
              { value: 'weekdays', label: t('enroll.weekdays'), disabled: !hasWeekdays },
              { value: 'weekends', label: t('enroll.weekends'), disabled: !hasWeekends },
            ]}
            {...form.getInputProps('batch')}
            data-testid="enroll-batch"
          />
        </div>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={t('enroll.startDate')}
            data={dates.map((date) => ({ value: date, label: formatDate(date, locale, 'long') }))}
            allowDeselect={false}
            leftSection={<IconCalendarEvent size={16} />}
            {...form.getInputProps('start_date')}
            data-testid="enroll-start-date"
          />
          <div>
            <Text size="sm" fw={500} mb={6}>
              {t('enroll.endDate')}
            </Text>
            <Paper withBorder px="sm" py={7} radius="md" data-testid="enroll-end-date">
              <Text size="sm">{endDate ? formatDate(endDate, locale, 'long') : '—'}</Text>
            </Paper>
          </div>
        </SimpleGrid>
        {values.batch === 'weekdays' ? (
          <Select
            label={t('enroll.time')}
            description={t('enroll.timeZoneHint')}
            data={timeOptions(course.weekday_times)}
            allowDeselect={false}
            {...form.getInputProps('time')}
            data-testid="enroll-time"
          />
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('enroll.saturdayTime')}
              data={timeOptions(course.weekend_times)}
              allowDeselect={false}
              {...form.getInputProps('saturday_time')}
              data-testid="enroll-saturday-time"
            />
            <Select
              label={t('enroll.sundayTime')}
              data={timeOptions(course.weekend_times)}
              allowDeselect={false}
              {...form.getInputProps('sunday_time')}
              data-testid="enroll-sunday-time"
            />
          </SimpleGrid>
        )}
        {/* Dark skin: the hover grey (dark 5) would leave the dimmed lines at 3.7:1; dark 6 keeps them above 4.5:1. */}
        <Paper withBorder radius="md" p="md" bg="light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-6))">
          <Group justify="space-between" wrap="nowrap">
            <div>
              <Text size="sm" c="dimmed">
                {t('enroll.total')}
              </Text>
              <Text size="xs" c="dimmed">
                {t('course.duration', { count: course.duration_weeks })}
              </Text>
            </div>
            <Text fw={800} fz="xl">
              {formatPrice(course.price, course.currency, locale)}
            </Text>
          </Group>
        </Paper>
        <Button type="submit" size="md" loading={busy} data-testid="enroll-submit">
          {t('enroll.proceed')}
        </Button>
      </Stack>
    </form>
  );
}
