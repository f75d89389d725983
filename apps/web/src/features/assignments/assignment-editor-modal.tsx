// The teacher's editor for an assignment: title, instructions, a due date and time on their own clocks
// (sent as an instant), and an optional file sent after the save with a progress bar and a cancel.
// A failed or cancelled file leaves the assignment saved without it, and says so.
import '@mantine/core/styles/Progress.css';
import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { assignmentLimits, type Assignment } from '@mooz/contract/assignments';
import { messages } from '@mooz/contract/messages';
import { UploadProgress } from '../../components/upload-recording';
import { messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import {
  assignmentBody,
  assignmentChanges,
  assignmentProblems,
  fileProblem,
  type AssignmentValues,
} from './assignment-forms';
import { FileLink, FilePick } from './assignment-bits';
import { dueInputValue } from './due-date';
import { viewerTimeZone } from '../../lib/intl';
import { useCreateAssignment, useDetachFile, useFileUpload, useUpdateAssignment } from './use-assignments';

function valuesOf(assignment: Assignment | null): AssignmentValues {
  return {
    title: assignment?.title ?? '',
    instructions: assignment?.instructions ?? '',
    due: assignment?.due_at ? dueInputValue(assignment.due_at) : '',
  };
}

export function AssignmentEditorModal({
  courseId,
  assignment,
  onClose,
}: {
  courseId: number;
  /** null: a new assignment. */
  assignment: Assignment | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const zone = viewerTimeZone();
  const initial = valuesOf(assignment);
  const create = useCreateAssignment(courseId);
  const update = useUpdateAssignment();
  const detach = useDetachFile();
  const upload = useFileUpload();
  const [file, setFile] = useState<File | null>(null);
  // Once saved, the assignment exists: a failed file is retried on it, not on a new one.
  const [saved, setSaved] = useState<Assignment | null>(assignment);
  const [fileFailed, setFileFailed] = useState<string | null>(null);
  const form = useForm<AssignmentValues>({
    initialValues: initial,
    validate: (values) => {
      const problems = assignmentProblems(values, { zone, unchangedDue: assignment ? initial.due : undefined });
      return Object.fromEntries(
        Object.entries(problems).map(([field, problem]) => [
          field,
          t(`courseAssignments.form.${problem}`, {
            max: problem === 'titleTooLong' ? assignmentLimits.titleMaxLength : assignmentLimits.instructionsMaxLength,
          }),
        ]),
      );
    },
  });
  const uploading = upload.state.status === 'uploading';
  const busy = create.isPending || update.isPending || uploading;

  const close = () => {
    if (uploading) upload.cancel();
    onClose();
  };

  const finish = (message: string) => {
    notify.success(translateServerMessage(t, message));
    onClose();
  };

  const sendFile = async (target: Assignment, doneMessage: string) => {
    if (!file) return finish(doneMessage);
    setFileFailed(null);
    const outcome = await upload.send<Assignment>({ kind: 'attachment', assignmentId: target.id, file });
    if (outcome.ok) return finish(doneMessage);
    if ('cancelled' in outcome) {
      notify.info(t('courseAssignments.form.fileCancelled'));
      return onClose();
    }
    const message = translateServerMessage(t, messageOf(outcome.error, messages.unexpected));
    setFileFailed(message);
    notify.error(message);
  };

  const submit = form.onSubmit(async (values) => {
    if (fileProblem(file)) return;
    try {
      if (!saved) {
        const response = await create.mutateAsync(assignmentBody(values, zone));
        setSaved(response.data);
        await sendFile(response.data, response.message ?? messages.assignmentCreated);
      } else {
        const patch = assignmentChanges(initial, values, zone);
        const response = Object.keys(patch).length ? await update.mutateAsync({ id: saved.id, patch }) : null;
        await sendFile(response?.data ?? saved, response?.message ?? messages.assignmentUpdated);
      }
    } catch (error) {
      notify.error(translateServerMessage(t, messageOf(error, messages.validationFailed)));
    }
  });

  return (
    <Modal
      opened
      onClose={close}
      title={
        assignment ? t('courseAssignments.editTitle', { title: assignment.title }) : t('courseAssignments.newTitle')
      }
      closeButtonProps={{ 'aria-label': t('common.close') }}
      size="lg"
      centered
      radius="lg"
      data-testid="assignment-editor"
    >
      <form noValidate onSubmit={submit}>
        <Stack gap="md">
          <TextInput
            label={t('courseAssignments.form.title')}
            required
            maxLength={assignmentLimits.titleMaxLength + 50}
            disabled={busy}
            key={form.key('title')}
            {...form.getInputProps('title')}
            dir="auto"
            data-testid="assignment-title"
          />
          <Textarea
            label={t('courseAssignments.form.instructions')}
            autosize
            minRows={4}
            maxRows={12}
            disabled={busy}
            key={form.key('instructions')}
            {...form.getInputProps('instructions')}
            dir="auto"
            data-testid="assignment-instructions"
          />
          <TextInput
            type="datetime-local"
            label={t('courseAssignments.form.due')}
            description={t('courseAssignments.form.dueHint', { zone })}
            disabled={busy}
            key={form.key('due')}
            {...form.getInputProps('due')}
            data-testid="assignment-due-input"
          />
          {saved?.attachment && (
            <Group gap="xs" justify="space-between" wrap="nowrap" data-testid="assignment-current-file">
              <FileLink file={saved.attachment} />
              <Button
                size="xs"
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={14} />}
                loading={detach.isPending}
                disabled={busy}
                onClick={() =>
                  detach.mutate(saved.id, {
                    onSuccess: (response) => {
                      setSaved(response.data);
                      notify.success(translateServerMessage(t, response.message ?? messages.attachmentRemoved));
                    },
                    onError: (error) => notify.error(translateServerMessage(t, messageOf(error, messages.unexpected))),
                  })
                }
              >
                {t('courseAssignments.form.removeFile')}
              </Button>
            </Group>
          )}
          <FilePick
            label={saved?.attachment ? t('courseAssignments.form.replaceFile') : t('courseAssignments.form.file')}
            value={file}
            onChange={(chosen) => {
              setFile(chosen);
              setFileFailed(null);
            }}
            disabled={busy}
            testId="assignment-file"
          />
          {uploading && (
            <Stack gap="xs" aria-live="polite">
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {t('recordings.upload.sending', { name: file?.name ?? '' })}
              </Text>
              <UploadProgress state={upload.state} />
            </Stack>
          )}
          {fileFailed && (
            <Alert
              color="red"
              radius="md"
              icon={<IconAlertCircle size={18} />}
              title={t('courseAssignments.form.fileFailed')}
              data-testid="assignment-file-error"
            >
              {fileFailed}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            {uploading ? (
              <Button variant="default" color="red" onClick={upload.cancel} data-testid="assignment-upload-cancel">
                {t('recordings.upload.cancel')}
              </Button>
            ) : (
              <Button variant="default" onClick={close}>
                {t('common.cancel')}
              </Button>
            )}
            <Button type="submit" loading={busy} disabled={fileProblem(file) !== null} data-testid="assignment-save">
              {saved ? t('common.save') : t('courseAssignments.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
