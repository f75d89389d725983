// Enrollment, step one: the batch: weekdays or weekends, then one of the course's batches of that
// kind, each with its dates, its days and times in the student's own time zone (and the course's), and
// its seats. The order body is the batch's own fields, with its id.
import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Group, Modal, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { IconCalendarEvent, IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Batch } from '@mooz/contract/batches';
import type { BatchKind, Course } from '@mooz/contract/courses';
import { createOrderBody, type CreateOrderBody } from '@mooz/contract/payments';
import { useAuthStore } from '../../lib/auth-store';
import { formatDate, formatPrice } from '../../lib/format';
import { describeSchedule, openBatches, sameClocks } from './batch-schedule';

interface ScheduleValues {
  batch: BatchKind;
  batch_id: string;
}

export function toOrderBody(course: Course, batch: Batch): CreateOrderBody {
  const base = { course_id: course.id, batch: batch.kind, batch_id: batch.id, start_date: batch.start_date, end_date: batch.end_date };
  return batch.kind === 'weekdays'
    ? { ...base, time: batch.time ?? '' }
    : { ...base, saturday_time: batch.saturday_time ?? '', sunday_time: batch.sunday_time ?? '' };
}

/** The first batch of a kind that still has a seat. */
const firstAvailable = (batches: Batch[], kind: BatchKind) => openBatches(batches, kind).find((b) => !b.sold_out);

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

/**
 * The dialog as loaded lazily (enroll-modal-lazy.tsx): mounted closed, then opened, so that Mantine notes
 * the element to give focus back to and plays its opening transition, as when it was mounted with the page.
 */
export function DeferredEnrollModal(props: EnrollModalProps) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return <EnrollModal {...props} course={mounted ? props.course : null} />;
}

function ScheduleForm({ course, busy, onSubmit }: { course: Course; busy: boolean; onSubmit: EnrollModalProps['onSubmit'] }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const batches = openBatches(course.batches);
  const hasWeekdays = batches.some((b) => b.kind === 'weekdays');
  const hasWeekends = batches.some((b) => b.kind === 'weekends');
  // The contract ends a trial at the first purchase (after it, only bought courses' sessions are
  // listed), so a student in trial is told before they pay, not surprised after.
  const inTrial = useAuthStore((state) => state.trial?.is_trial === true);
  const initialKind: BatchKind = firstAvailable(batches, 'weekdays') || !hasWeekends ? 'weekdays' : 'weekends';

  const form = useForm<ScheduleValues>({
    initialValues: { batch: initialKind, batch_id: String(firstAvailable(batches, initialKind)?.id ?? '') },
    validate: (values) => {
      const chosen = batches.find((b) => String(b.id) === values.batch_id);
      if (!chosen) return { batch_id: t('enroll.required') };
      if (chosen.sold_out) return { batch_id: t('enroll.soldOut') };
      return Object.keys(validateOrder(toOrderBody(course, chosen))).length ? { batch_id: t('enroll.required') } : {};
    },
  });
  const { values } = form;
  const ofKind = batches.filter((b) => b.kind === values.batch);
  const chosen = ofKind.find((b) => String(b.id) === values.batch_id) ?? null;

  if (!batches.length) {
    return (
      <Alert color="orange" icon={<IconInfoCircle size={18} />} data-testid="enroll-no-batches">
        {t('enroll.noBatches')}
      </Alert>
    );
  }

  const option = (batch: Batch) => ({
    value: String(batch.id),
    label: `${formatDate(batch.start_date, locale, 'long')} · ${describeSchedule(batch, locale)}${batch.sold_out ? ` · ${t('enroll.soldOut')}` : ''}`,
    disabled: batch.sold_out,
  });

  return (
    <form
      onSubmit={form.onSubmit(async () => {
        if (!chosen) return;
        const result = await onSubmit(course, toOrderBody(course, chosen));
        if (!result.ok && result.errors) {
          form.setErrors({ batch_id: Object.values(result.errors).flat().join(' ') });
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
            value={values.batch}
            onChange={(kind) => {
              const next = kind as BatchKind;
              form.setValues({ batch: next, batch_id: String(firstAvailable(batches, next)?.id ?? '') });
            }}
            data-testid="enroll-batch"
          />
        </div>
        <Select
          label={t('enroll.startDate')}
          description={t('enroll.timeZoneHint')}
          data={ofKind.map(option)}
          allowDeselect={false}
          leftSection={<IconCalendarEvent size={16} />}
          {...form.getInputProps('batch_id')}
          data-testid="enroll-start-date"
        />
        {chosen && <BatchFacts batch={chosen} locale={locale} />}
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
        <Button type="submit" size="md" loading={busy} disabled={!chosen || chosen.sold_out} data-testid="enroll-submit">
          {t('enroll.proceed')}
        </Button>
      </Stack>
    </form>
  );
}

/** The chosen batch: when it ends, when it meets (here and in the course's zone), and its seats. */
function BatchFacts({ batch, locale }: { batch: Batch; locale: string }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} data-testid="enroll-schedule">
      <div>
        <Text size="sm" fw={500} mb={6}>
          {t('enroll.endDate')}
        </Text>
        <Paper withBorder px="sm" py={7} radius="md" data-testid="enroll-end-date">
          <Text size="sm">{formatDate(batch.end_date, locale, 'long')}</Text>
        </Paper>
      </div>
      <div>
        <Text size="sm" fw={500} mb={6}>
          {t('enroll.classes')}
        </Text>
        <Paper withBorder px="sm" py={7} radius="md">
          <Text size="sm" data-testid="enroll-your-time">
            {describeSchedule(batch, locale)}
          </Text>
          {!sameClocks(batch, locale) && (
            <Text size="xs" c="dimmed" data-testid="enroll-course-time">
              {t('enroll.courseTime', { zone: batch.time_zone, schedule: describeSchedule(batch, locale, batch.time_zone) })}
            </Text>
          )}
        </Paper>
      </div>
      <Group gap="xs">
        <Badge variant="light" tt="none" color={batch.seats_left <= 2 ? 'orange' : 'teal'} data-testid="enroll-seats">
          {batch.sold_out ? t('enroll.soldOut') : t('enroll.seatsLeft', { count: batch.seats_left })}
        </Badge>
      </Group>
    </SimpleGrid>
  );
}
