// Teachers (and admins) create a course or edit one of theirs: the contract's course fields,
// validated by the contract's own schema before the server sees them.
import '../../styles/mantine-more';
import { useMemo } from 'react';
import { Alert, Button, Card, Group, Loader, NumberInput, Select, SimpleGrid, Stack, Switch, TagsInput, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { IconAlertCircle, IconArrowLeft, IconDeviceFloppy } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { courseInput, type Course } from '@mooz/contract/courses';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import { PageHeader } from '../../components/list-states';
import { paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api';
import { formatDate, todayUtc } from '../../lib/format';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { useCourse } from './use-courses';
import { useSaveCourse } from './use-save-course';
import { courseTimeForViewer, timeZoneChoices } from './time-zones';
import { ValueListInput } from './value-list-input';

const currencies = ['INR', 'USD', 'EUR', 'GBP'];

interface CourseFormValues {
  name: string;
  description: string;
  /** Major units in the form; the contract's minor units on the wire. */
  price: number | string;
  currency: string;
  skills: string[];
  duration_weeks: number | string;
  batch_start_dates: string[];
  weekday_times: string[];
  weekend_times: string[];
  image_url: string;
  published: boolean;
  /** The IANA zone the dates and times are in. */
  time_zone: string;
}

const emptyCourse: CourseFormValues = {
  name: '',
  description: '',
  price: '',
  currency: 'INR',
  skills: [],
  duration_weeks: 8,
  batch_start_dates: [],
  weekday_times: [],
  weekend_times: [],
  image_url: '',
  published: true,
  time_zone: limits.defaultCourseTimeZone,
};

function fromCourse(course: Course): CourseFormValues {
  return {
    name: course.name,
    description: course.description,
    price: course.price / 100,
    currency: course.currency,
    skills: course.skills,
    duration_weeks: course.duration_weeks,
    batch_start_dates: course.batch_start_dates,
    weekday_times: course.weekday_times,
    weekend_times: course.weekend_times,
    image_url: course.image_url ?? '',
    published: course.published,
    time_zone: course.time_zone,
  };
}

function toBody(values: CourseFormValues) {
  return {
    name: values.name,
    description: values.description,
    price: values.price === '' ? Number.NaN : Math.round(Number(values.price) * 100),
    currency: values.currency,
    skills: values.skills,
    duration_weeks: values.duration_weeks === '' ? Number.NaN : Number(values.duration_weeks),
    batch_start_dates: values.batch_start_dates,
    weekday_times: values.weekday_times,
    weekend_times: values.weekend_times,
    image_url: values.image_url.trim() || null,
    published: values.published,
    time_zone: values.time_zone,
  };
}

const formFields = ['name', 'description', 'price', 'currency', 'skills', 'duration_weeks', 'batch_start_dates', 'weekday_times', 'weekend_times', 'image_url', 'time_zone'] as const;

const validateCourse = zod4Resolver(courseInput, { errorPriority: 'first' });

/** The numbers the hints state, from the contract's limits; the price in the user's number format. */
function hintValues(locale: string): Record<string, Record<string, number | string>> {
  return {
    name: { max: limits.courseNameMaxLength },
    description: { max: limits.courseDescriptionMaxLength },
    price: { min: (limits.coursePriceMin / 100).toLocaleString(locale, { minimumFractionDigits: 2 }) },
    skills: { max: limits.courseSkillsMax, maxLength: limits.courseSkillMaxLength },
    duration_weeks: { min: limits.courseMinWeeks, max: limits.courseMaxWeeks },
  };
}

/** One translated hint per wrong field (the contract's own texts are English), keyed by form field. */
function fieldErrors(fieldPaths: string[], t: (key: string, values?: Record<string, number | string>) => string, locale: string): Record<string, string> {
  const result: Record<string, string> = {};
  const values = hintValues(locale);
  for (const path of fieldPaths) {
    const field = path.split('.')[0]!;
    if ((formFields as readonly string[]).includes(field)) result[field] ??= t(`teach.invalid.${field}`, values[field]);
  }
  return result;
}

export function CourseEditorPage() {
  const { id } = useParams();
  const courseId = id === undefined ? undefined : Number(id);
  const existing = useCourse(courseId ?? 0);
  const { t } = useTranslation();

  if (courseId !== undefined && existing.isPending) {
    return (
      <Group justify="center" py={64}>
        <Loader aria-label={t('common.loading')} />
      </Group>
    );
  }
  if (courseId !== undefined && (existing.isError || !existing.data)) {
    return (
      <Alert color="red" icon={<IconAlertCircle size={18} />} title={t('teach.loadFailed')} data-testid="course-editor-error">
        {translateServerMessage(t, messageOf(existing.error, messages.courseNotFound))}
      </Alert>
    );
  }
  return <CourseForm course={existing.data?.data} />;
}

function CourseForm({ course }: { course?: Course }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const navigate = useNavigate();
  const save = useSaveCourse(course?.id);
  const form = useForm<CourseFormValues>({
    initialValues: course ? fromCourse(course) : emptyCourse,
    validate: (values) => fieldErrors(Object.keys(validateCourse(toBody(values))), t, locale),
  });
  const zones = useMemo(() => timeZoneChoices(course?.time_zone), [course?.time_zone]);
  // Times are wall-clock times in the chosen zone; where the viewer's clock reads otherwise (on the
  // first batch's day, daylight saving included), its time is shown too.
  const onDate = form.values.batch_start_dates.find((date) => date >= todayUtc()) ?? todayUtc();
  const withViewerTime = (time: string) => {
    const shown = courseTimeForViewer(time, form.values.time_zone, locale, onDate);
    return shown.viewer ? t('teach.timeWithYours', { time: shown.course, yours: shown.viewer }) : shown.course;
  };

  return (
    <div data-testid="course-editor">
      <PageHeader
        title={course ? t('teach.editTitle', { name: course.name }) : t('teach.newCourse')}
        description={t('teach.subtitle')}
        actions={
          <Button variant="default" component={Link} to={paths.myCourses} leftSection={<IconArrowLeft size={16} />}>
            {t('teach.back')}
          </Button>
        }
      />
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          save.mutate(toBody(values), {
            onSuccess: (response) => {
              notify.success(translateServerMessage(t, response.message ?? (course ? messages.courseUpdated : messages.courseCreated)));
              void navigate(paths.myCourses);
            },
            onError: (error) => {
              if (error instanceof ApiError && error.errors) form.setErrors(fieldErrors(Object.keys(error.errors), t, locale));
              notify.error(translateServerMessage(t, messageOf(error, messages.validationFailed)));
            },
          }),
        )}
      >
        <Card withBorder radius="lg" p="lg">
          <Stack gap="md">
            <TextInput label={t('teach.name')} required {...form.getInputProps('name')} data-testid="course-name" />
            <Textarea label={t('teach.description')} required autosize minRows={3} maxRows={8} {...form.getInputProps('description')} />
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <NumberInput label={t('teach.price')} required min={limits.coursePriceMin / 100} decimalScale={2} thousandSeparator {...form.getInputProps('price')} />
              <Select label={t('teach.currency')} data={currencies} allowDeselect={false} {...form.getInputProps('currency')} />
              <NumberInput label={t('teach.durationWeeks')} required min={limits.courseMinWeeks} max={limits.courseMaxWeeks} allowDecimal={false} {...form.getInputProps('duration_weeks')} />
            </SimpleGrid>
            <TagsInput label={t('teach.skills')} description={t('teach.skillsHint')} maxTags={limits.courseSkillsMax} {...form.getInputProps('skills')} />
            <Select
              label={t('teach.timeZone')}
              description={t('teach.timeZoneHint')}
              data={zones}
              searchable
              allowDeselect={false}
              nothingFoundMessage={t('teach.timeZoneNone')}
              {...form.getInputProps('time_zone')}
              data-testid="course-time-zone"
            />
            <ValueListInput
              kind="date"
              label={t('teach.batchStartDates')}
              description={t('teach.batchStartDatesHint')}
              format={(date) => formatDate(date, locale)}
              testId="course-dates"
              {...form.getInputProps('batch_start_dates')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <ValueListInput
                kind="time"
                label={t('teach.weekdayTimes')}
                description={t('teach.timesHint', { zone: form.values.time_zone })}
                format={withViewerTime}
                {...form.getInputProps('weekday_times')}
              />
              <ValueListInput
                kind="time"
                label={t('teach.weekendTimes')}
                description={t('teach.timesHint', { zone: form.values.time_zone })}
                format={withViewerTime}
                {...form.getInputProps('weekend_times')}
              />
            </SimpleGrid>
            <TextInput label={t('teach.imageUrl')} placeholder="https://" {...form.getInputProps('image_url')} />
            <Switch label={t('teach.publishedLabel')} {...form.getInputProps('published', { type: 'checkbox' })} />
            <Group justify="flex-end">
              <Button type="submit" loading={save.isPending} leftSection={<IconDeviceFloppy size={16} />} data-testid="course-save">
                {course ? t('teach.save') : t('teach.create')}
              </Button>
            </Group>
          </Stack>
        </Card>
      </form>
    </div>
  );
}
