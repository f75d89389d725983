// Teachers schedule a session in one of their courses: title, start (in their own time zone),
// duration and capacity.
import { Button, Modal, NumberInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useTranslation } from 'react-i18next';
import { sessionInput } from '@mooz/contract/courses';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import { ApiError, messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { DurationInput, isoFromLocalInput, localInputValue, StartsAtInput } from './session-form';
import { useScheduleSession, useTaughtCourses } from './use-sessions';
import { useMeetingCapacity } from '../../lib/meeting-capacity';

interface Values {
  course_id: string;
  title: string;
  starts_at: string;
  duration_minutes: number | string;
  capacity: number | string;
}

/** The form's values as the contract's request body: the start goes from the browser's time zone to UTC. */
function toBody(values: Values) {
  return {
    course_id: Number(values.course_id),
    title: values.title.trim(),
    starts_at: isoFromLocalInput(values.starts_at),
    duration_minutes: Number(values.duration_minutes),
    capacity: Number(values.capacity),
  };
}

const validateBody = zod4Resolver(sessionInput, { errorPriority: 'first' });

function nextFullHour(): Date {
  const at = new Date(Date.now() + 3_600_000);
  at.setMinutes(0, 0, 0);
  return at;
}

export function ScheduleSessionModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const courses = useTaughtCourses(opened);
  const schedule = useScheduleSession();
  const { maxCapacity } = useMeetingCapacity(opened);
  const form = useForm<Values>({
    initialValues: { course_id: '', title: '', starts_at: localInputValue(nextFullHour()), duration_minutes: 60, capacity: limits.defaultMeetingCapacity },
    // The contract's rules, each wrong field shown with its translated hint; the server also wants a
    // start in the future, which no schema can know.
    validate: (values) => {
      const wrong = new Set(Object.keys(validateBody(toBody(values))));
      // The schema allows the largest room of all; this server may hold fewer (no SFU).
      if (Number(values.capacity) > maxCapacity) wrong.add('capacity');
      if (!wrong.has('starts_at') && new Date(values.starts_at).getTime() <= Date.now()) wrong.add('starts_at');
      const hints: Record<keyof Values, string> = {
        course_id: t('sessions.form.courseRequired'),
        title: values.title.trim() ? t('sessions.form.invalid') : t('sessions.form.titleRequired'),
        starts_at: t('sessions.form.startsAtFuture'),
        duration_minutes: t('sessions.form.durationRange', { min: limits.sessionMinMinutes, max: limits.sessionMaxMinutes }),
        capacity: t('sessions.form.capacityRange', { min: limits.meetingMinCapacity, max: maxCapacity }),
      };
      return Object.fromEntries(Object.entries(hints).filter(([field]) => wrong.has(field)));
    },
  });

  const close = () => {
    form.reset();
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('sessions.schedule')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      size="lg"
      centered
      data-testid="schedule-session"
    >
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          schedule.mutate(
            toBody(values),
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
          <StartsAtInput {...form.getInputProps('starts_at')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <DurationInput {...form.getInputProps('duration_minutes')} />
            <NumberInput label={t('sessions.form.capacity')} min={limits.meetingMinCapacity} max={maxCapacity} allowDecimal={false} {...form.getInputProps('capacity')} />
          </SimpleGrid>
          <Button type="submit" loading={schedule.isPending} data-testid="session-submit">
            {t('sessions.form.submit')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
