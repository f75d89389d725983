// Teachers schedule a session in one of their courses: title, start (in their own time zone),
// duration and capacity.
import { Button, Modal, NumberInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import { ApiError, messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { useScheduleSession, useTaughtCourses } from './use-sessions';

interface Values {
  course_id: string;
  title: string;
  starts_at: string;
  duration_minutes: number | string;
  capacity: number | string;
}

/** `YYYY-MM-DDTHH:MM` for a datetime-local input, in the browser's time zone. */
function localInputValue(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

function nextFullHour(): Date {
  const at = new Date(Date.now() + 3_600_000);
  at.setMinutes(0, 0, 0);
  return at;
}

export function ScheduleSessionModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const courses = useTaughtCourses(opened);
  const schedule = useScheduleSession();
  const form = useForm<Values>({
    initialValues: { course_id: '', title: '', starts_at: localInputValue(nextFullHour()), duration_minutes: 60, capacity: limits.defaultMeetingCapacity },
    validate: {
      course_id: (value) => (value ? null : t('sessions.form.courseRequired')),
      title: (value) => (value.trim() ? null : t('sessions.form.titleRequired')),
      starts_at: (value) => {
        const at = new Date(value);
        return !value || Number.isNaN(at.getTime()) || at.getTime() <= Date.now() ? t('sessions.form.startsAtFuture') : null;
      },
      duration_minutes: (value) =>
        Number(value) >= limits.sessionMinMinutes && Number(value) <= limits.sessionMaxMinutes
          ? null
          : t('sessions.form.durationRange', { min: limits.sessionMinMinutes, max: limits.sessionMaxMinutes }),
      capacity: (value) =>
        Number(value) >= 2 && Number(value) <= limits.sessionMaxCapacity ? null : t('sessions.form.capacityRange', { max: limits.sessionMaxCapacity }),
    },
  });

  const close = () => {
    form.reset();
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title={t('sessions.schedule')} size="lg" centered data-testid="schedule-session">
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          schedule.mutate(
            {
              course_id: Number(values.course_id),
              title: values.title.trim(),
              starts_at: new Date(values.starts_at).toISOString(),
              duration_minutes: Number(values.duration_minutes),
              capacity: Number(values.capacity),
            },
            {
              onSuccess: (response) => {
                notify.success(translateServerMessage(t, response.message ?? messages.sessionScheduled));
                close();
              },
              onError: (error) => {
                if (error instanceof ApiError && error.errors) {
                  form.setErrors(Object.fromEntries(Object.keys(error.errors).map((field) => [field, t('sessions.form.invalid')])));
                }
                notify.error(translateServerMessage(t, messageOf(error, messages.validationFailed)));
              },
            },
          ),
        )}
      >
        <Stack gap="md">
          <Select
            label={t('sessions.form.course')}
            placeholder={courses.isPending ? t('common.loading') : undefined}
            data={(courses.data?.data ?? []).map((course) => ({ value: String(course.id), label: course.name }))}
            nothingFoundMessage={t('sessions.form.noCourses')}
            required
            searchable
            {...form.getInputProps('course_id')}
            data-testid="session-course"
          />
          <TextInput label={t('sessions.form.title')} required {...form.getInputProps('title')} data-testid="session-title" />
          <TextInput
            type="datetime-local"
            label={t('sessions.form.startsAt')}
            description={t('sessions.form.startsAtHint', { zone: Intl.DateTimeFormat().resolvedOptions().timeZone })}
            required
            {...form.getInputProps('starts_at')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput
              label={t('sessions.form.duration')}
              min={limits.sessionMinMinutes}
              max={limits.sessionMaxMinutes}
              step={15}
              allowDecimal={false}
              {...form.getInputProps('duration_minutes')}
            />
            <NumberInput label={t('sessions.form.capacity')} min={2} max={limits.sessionMaxCapacity} allowDecimal={false} {...form.getInputProps('capacity')} />
          </SimpleGrid>
          <Button type="submit" loading={schedule.isPending} data-testid="session-submit">
            {t('sessions.form.submit')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
