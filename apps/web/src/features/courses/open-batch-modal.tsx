// A teacher opens a batch of their course: its kind, the Monday (weekdays) or Saturday (weekends) it
// starts on, its time or its Saturday and Sunday times in the course's zone, its seats and the length
// of its sessions. Checked with the contract's schema, then by the server, whose field errors land on
// the fields.
import { Button, Group, Modal, NumberInput, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { IconCalendarPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { batchInput } from '@mooz/contract/batches';
import { batchEndDate, type BatchKind, type Course } from '@mooz/contract/courses';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import { ApiError, messageOf } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import {
  emptyBatch,
  fieldsOf,
  missingPieces,
  nextStartDay,
  problemOf,
  toBatchBody,
  weekdayOf,
  type OpenBatchField,
  type OpenBatchValues,
} from './open-batch-form';
import { courseTimeForViewer, todayInZone } from './time-zones';
import { useOpenBatch } from './use-batches';

const validateBody = zod4Resolver(batchInput, { errorPriority: 'first' });

const timeFields = {
  weekdays: [{ field: 'time', label: 'batches.form.time', testId: 'batch-time' }],
  weekends: [
    { field: 'saturday_time', label: 'batches.form.saturdayTime', testId: 'batch-saturday-time' },
    { field: 'sunday_time', label: 'batches.form.sundayTime', testId: 'batch-sunday-time' },
  ],
} as const;

export function OpenBatchModal({ course, opened, onClose }: { course: Course; opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={<Text fw={700}>{t('batches.open.title', { name: course.name })}</Text>}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      size="lg"
      centered
      data-testid="open-batch-dialog"
    >
      {opened && <OpenBatchForm course={course} onDone={onClose} />}
    </Modal>
  );
}

function OpenBatchForm({ course, onDone }: { course: Course; onDone(): void }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const today = todayInZone(course.time_zone);
  const open = useOpenBatch(course.id);
  const hint = (field: OpenBatchField, values: OpenBatchValues) => {
    const problem = problemOf(field, values, today);
    return t(problem.key, problem.values);
  };
  const form = useForm<OpenBatchValues>({
    initialValues: emptyBatch(
      course.weekday_times.length || !course.weekend_times.length ? 'weekdays' : 'weekends',
      today,
    ),
    validate: (values) => {
      const wrong = new Set([
        ...fieldsOf(Object.keys(validateBody(toBatchBody(values)))),
        ...missingPieces(values, today),
      ]);
      return Object.fromEntries([...wrong].map((field) => [field, hint(field, values)]));
    },
  });
  const { values } = form;
  const weekdays = values.kind === 'weekdays';
  const validStart = Boolean(values.start_date) && weekdayOf(values.start_date) === (weekdays ? 1 : 6);

  /** The course zone's time, and the viewer's when their clock reads otherwise that day. */
  const timeHint = (time: string) => {
    if (!time || !validStart) return t('batches.form.timeZoneHint', { zone: course.time_zone });
    const shown = courseTimeForViewer(time, course.time_zone, locale, values.start_date);
    return shown.viewer
      ? t('batches.form.timeYours', { zone: course.time_zone, time: shown.viewer })
      : t('batches.form.timeZoneHint', { zone: course.time_zone });
  };

  const submit = form.onSubmit((chosen) =>
    open.mutate(toBatchBody(chosen), {
      onSuccess: (response) => {
        notify.success(translateServerMessage(t, response.message ?? messages.batchOpened));
        onDone();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.errors) {
          form.setErrors(
            Object.fromEntries(fieldsOf(Object.keys(error.errors)).map((field) => [field, hint(field, chosen)])),
          );
        }
        notify.error(translateServerMessage(t, messageOf(error, messages.validationFailed)));
      },
    }),
  );

  return (
    <form noValidate onSubmit={submit} data-testid="open-batch-form">
      <Stack gap="md">
        <Radio.Group
          label={t('batches.form.kind')}
          value={values.kind}
          onChange={(kind) => {
            form.setFieldValue('kind', kind as BatchKind);
            // Keep the week: move the start to that kind's first day on or after the one chosen.
            form.setFieldValue(
              'start_date',
              nextStartDay(
                kind as BatchKind,
                values.start_date && values.start_date >= today ? values.start_date : today,
              ),
            );
            form.clearErrors();
          }}
        >
          <Group mt={6}>
            <Radio value="weekdays" label={t('batches.kind.weekdays')} data-testid="batch-kind-weekdays" />
            <Radio value="weekends" label={t('batches.kind.weekends')} data-testid="batch-kind-weekends" />
          </Group>
        </Radio.Group>
        <TextInput
          type="date"
          label={weekdays ? t('batches.form.startMonday') : t('batches.form.startSaturday')}
          description={
            validStart
              ? t('batches.form.runsUntil', {
                  date: formatDate(batchEndDate(values.start_date, course.duration_weeks), locale),
                })
              : undefined
          }
          required
          // The browser's picker offers only the kind's first day: every 7th day from the first one possible.
          min={nextStartDay(values.kind, today)}
          step={7}
          {...form.getInputProps('start_date')}
          data-testid="batch-start-date"
        />
        {/* A weekday batch meets at one time; a weekend batch at its Saturday time and its Sunday time. */}
        <SimpleGrid cols={{ base: 1, sm: weekdays ? 1 : 2 }}>
          {(weekdays ? timeFields.weekdays : timeFields.weekends).map(({ field, label, testId }) => (
            <TextInput
              key={field}
              type="time"
              label={t(label)}
              description={timeHint(values[field])}
              required
              {...form.getInputProps(field)}
              data-testid={testId}
            />
          ))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label={t('batches.form.seats')}
            min={1}
            max={limits.batchSeatsMax}
            allowDecimal={false}
            {...form.getInputProps('capacity')}
            data-testid="batch-seats"
          />
          <NumberInput
            label={t('batches.form.sessionMinutes')}
            min={limits.sessionMinMinutes}
            max={limits.sessionMaxMinutes}
            step={15}
            allowDecimal={false}
            {...form.getInputProps('session_minutes')}
            data-testid="batch-session-minutes"
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            loading={open.isPending}
            leftSection={<IconCalendarPlus size={16} />}
            data-testid="open-batch-submit"
          >
            {t('batches.open.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
