// A teacher's actions on one of their sessions: before it ends, Edit (title, start, duration) and
// Cancel (with a reason the students are mailed); once it has ended, its Attendance (shown, or saved as
// CSV). At any time, for
// whoever may create recordings (the session's teacher, an admin), Upload recording from disk.
import '@mantine/core/styles/Table.css';
import { useState } from 'react';
import { Button, Group, Modal, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCalendarX, IconFileSpreadsheet, IconListCheck, IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Session } from '@mooz/contract/courses';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import { ListEmpty, ListError, ListLoading } from '../../components/list-states';
import { UploadRecordingButton } from '../../components/upload-recording';
import { useAbility } from '../../lib/ability';
import { ApiError, messageOf } from '../../lib/api';
import { isolate } from '../../lib/bidi';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { DurationInput, isoFromLocalInput, localInputValue, StartsAtInput } from './session-form';
import { useAttendanceCsv, useCancelSession, useEditSession, useSessionAttendance } from './use-session-changes';
import { dateTimeFormat } from '../../lib/intl';

const minutesOf = (session: Session) => Math.round((new Date(session.ends_at).getTime() - new Date(session.starts_at).getTime()) / 60_000);

function useFailureToast() {
  const { t } = useTranslation();
  return (error: unknown) => notify.error(translateServerMessage(t, messageOf(error, messages.validationFailed)));
}

function EditSessionModal({ session, opened, onClose }: { session: Session; opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const edit = useEditSession(session.id);
  const failed = useFailureToast();
  const form = useForm({
    initialValues: { title: session.title, starts_at: localInputValue(new Date(session.starts_at)), duration_minutes: minutesOf(session) as number | string },
    validate: {
      title: (value) => (value.trim() ? null : t('sessions.form.titleRequired')),
      starts_at: (value) => (Number.isNaN(new Date(value).getTime()) ? t('sessions.form.startsAtFuture') : null),
      duration_minutes: (value) =>
        Number.isInteger(Number(value)) && Number(value) >= limits.sessionMinMinutes && Number(value) <= limits.sessionMaxMinutes
          ? null
          : t('sessions.form.durationRange', { min: limits.sessionMinMinutes, max: limits.sessionMaxMinutes }),
    },
  });
  const submit = form.onSubmit((values) => {
    const startsAt = isoFromLocalInput(values.starts_at);
    // Only what changed: an unchanged start in the past (a live session) is not a move.
    const body = {
      ...(values.title.trim() !== session.title && { title: values.title.trim() }),
      ...(new Date(startsAt).getTime() !== new Date(session.starts_at).getTime() && { starts_at: startsAt }),
      ...(Number(values.duration_minutes) !== minutesOf(session) && { duration_minutes: Number(values.duration_minutes) }),
    };
    if (!Object.keys(body).length) return onClose();
    edit.mutate(body, {
      onSuccess: (response) => {
        notify.success(translateServerMessage(t, response.message ?? messages.sessionUpdated));
        onClose();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.errors) form.setErrors(Object.fromEntries(Object.keys(error.errors).map((field) => [field, t('sessions.form.invalid')])));
        failed(error);
      },
    });
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('sessions.edit.title')} closeButtonProps={{ 'aria-label': t('common.close') }} centered data-testid="edit-session">
      <form noValidate onSubmit={submit}>
        <Stack gap="md">
          <TextInput label={t('sessions.form.title')} required {...form.getInputProps('title')} data-testid="edit-session-title" />
          <StartsAtInput {...form.getInputProps('starts_at')} />
          <DurationInput {...form.getInputProps('duration_minutes')} />
          <Text size="sm" c="dimmed">
            {t('sessions.edit.mailHint')}
          </Text>
          <Button type="submit" loading={edit.isPending} data-testid="edit-session-submit">
            {t('common.save')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

function CancelSessionModal({ session, opened, onClose }: { session: Session; opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const cancel = useCancelSession(session.id);
  const failed = useFailureToast();
  const form = useForm({
    initialValues: { reason: '' },
    validate: {
      reason: (value) =>
        !value.trim() ? t('sessions.cancel.reasonRequired') : value.trim().length > limits.cancelReasonMaxLength ? t('sessions.cancel.reasonTooLong', { max: limits.cancelReasonMaxLength }) : null,
    },
  });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit((values) =>
    cancel.mutate(
      { reason: values.reason.trim() },
      {
        onSuccess: (response) => {
          notify.success(translateServerMessage(t, response.message ?? messages.sessionCancelled));
          close();
        },
        onError: failed,
      },
    ),
  );
  return (
    <Modal opened={opened} onClose={close} title={t('sessions.cancel.title', { title: session.title })} closeButtonProps={{ 'aria-label': t('common.close') }} centered data-testid="cancel-session">
      <form noValidate onSubmit={submit}>
        <Stack gap="md">
          <Text size="sm">{t('sessions.cancel.text')}</Text>
          <Textarea
            label={t('sessions.cancel.reason')}
            required
            autosize
            minRows={3}
            maxLength={limits.cancelReasonMaxLength}
            description={t('sessions.cancel.reasonHint', { max: limits.cancelReasonMaxLength })}
            {...form.getInputProps('reason')}
            data-testid="cancel-session-reason"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('sessions.cancel.keep')}
            </Button>
            <Button type="submit" color="red" loading={cancel.isPending} leftSection={<IconCalendarX size={16} />} data-testid="cancel-session-submit">
              {t('sessions.cancel.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function AttendanceModal({ session, opened, onClose }: { session: Session; opened: boolean; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const report = useSessionAttendance(session.id, opened);
  const time = (iso: string | null) => (iso ? isolate(dateTimeFormat(i18n.language, { timeStyle: 'short' }).format(new Date(iso))) : '—');
  return (
    <Modal opened={opened} onClose={onClose} title={t('sessions.attendance.title', { title: session.title })} closeButtonProps={{ 'aria-label': t('common.close') }} size="lg" centered data-testid="session-attendance">
      {report.isPending ? (
        <ListLoading count={1} height={120} list />
      ) : report.isError ? (
        <ListError title={t('sessions.attendance.errorTitle')} message={translateServerMessage(t, messageOf(report.error, messages.unexpected))} onRetry={() => void report.refetch()} retrying={report.isFetching} />
      ) : report.data.data.attended.length + report.data.data.absent.length === 0 ? (
        <ListEmpty icon={<IconListCheck size={36} />} title={t('sessions.attendance.empty.title')} description={t('sessions.attendance.empty.description')} />
      ) : (
        <Stack gap="md">
          <Title order={3} size="h5">
            {t('sessions.attendance.attended', { count: report.data.data.attended.length })}
          </Title>
          {report.data.data.attended.length > 0 && (
            <Table.ScrollContainer minWidth={420}>
              <Table verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('sessions.attendance.name')}</Table.Th>
                    <Table.Th>{t('sessions.attendance.firstJoined')}</Table.Th>
                    <Table.Th>{t('sessions.attendance.lastLeft')}</Table.Th>
                    <Table.Th>{t('sessions.attendance.minutes')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {report.data.data.attended.map((person) => (
                    <Table.Tr key={person.user_id} data-testid="attendee-row">
                      <Table.Td>{person.name}</Table.Td>
                      <Table.Td>{time(person.first_joined_at)}</Table.Td>
                      <Table.Td>{time(person.last_left_at)}</Table.Td>
                      <Table.Td>{person.minutes_present}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Title order={3} size="h5">
            {t('sessions.attendance.absent', { count: report.data.data.absent.length })}
          </Title>
          {report.data.data.absent.length > 0 && <Text size="sm">{report.data.data.absent.map((person) => person.name).join(', ')}</Text>}
        </Stack>
      )}
    </Modal>
  );
}

type Dialog = 'edit' | 'cancel' | 'attendance' | null;

function AttendanceCsvButton({ session }: { session: Session }) {
  const { t } = useTranslation();
  const csv = useAttendanceCsv(session.id);
  const failed = useFailureToast();
  return (
    <Button
      variant="default"
      leftSection={<IconFileSpreadsheet size={16} />}
      loading={csv.isPending}
      onClick={() => csv.mutate(undefined, { onSuccess: (file) => notify.success(t('students.exported', { file })), onError: failed })}
      aria-label={t('sessions.attendance.csvNamed', { title: session.title })}
      data-testid="session-attendance-csv"
    >
      {t('sessions.attendance.csv')}
    </Button>
  );
}

export function SessionActions({ session }: { session: Session }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<Dialog>(null);
  const close = () => setOpen(null);
  // Only the session's teacher or an admin is listed this session with its actions; the server checks it again.
  const upload = useAbility().can('create', 'Recording') && <UploadRecordingButton roomId={session.room_id} sessionTitle={session.title} />;
  if (session.status === 'ended') {
    return (
      <Group gap="xs">
        <Button variant="light" leftSection={<IconListCheck size={16} />} onClick={() => setOpen('attendance')} data-testid="session-attendance-button">
          {t('sessions.attendance.action')}
        </Button>
        <AttendanceCsvButton session={session} />
        {upload}
        {open === 'attendance' && <AttendanceModal session={session} opened onClose={close} />}
      </Group>
    );
  }
  return (
    <Group gap="xs">
      <Button variant="default" leftSection={<IconPencil size={16} />} onClick={() => setOpen('edit')} aria-label={t('sessions.edit.named', { title: session.title })} data-testid="edit-session-button">
        {t('sessions.edit.action')}
      </Button>
      <Button variant="light" color="red" leftSection={<IconCalendarX size={16} />} onClick={() => setOpen('cancel')} aria-label={t('sessions.cancel.named', { title: session.title })} data-testid="cancel-session-button">
        {t('sessions.cancel.action')}
      </Button>
      {upload}
      {open === 'edit' && <EditSessionModal session={session} opened onClose={close} />}
      {open === 'cancel' && <CancelSessionModal session={session} opened onClose={close} />}
    </Group>
  );
}
