// A student's answer to an assignment: a text and/or one file, sent with a progress bar and a cancel.
// Until the teacher reviews it, sending again replaces it, text and file (the server refuses once reviewed).
import '@mantine/core/styles/Progress.css';
import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertCircle, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { assignmentLimits, type Assignment, type Submission } from '@mooz/contract/assignments';
import { messages } from '@mooz/contract/messages';
import { UploadProgress } from '../../components/upload-recording';
import { messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { answerProblem } from './assignment-forms';
import { FilePick } from './assignment-bits';
import { useFileUpload } from './use-assignments';

export function AnswerModal({ assignment, onClose }: { assignment: Assignment; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const previous = assignment.my_submission;
  const [text, setText] = useState(previous?.text ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [tried, setTried] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const upload = useFileUpload();
  const uploading = upload.state.status === 'uploading';
  const problem = answerProblem(text, file);
  const textProblem =
    problem === 'answerTooLong'
      ? t('courseAssignments.answer.tooLong', { max: assignmentLimits.answerMaxLength.toLocaleString(i18n.language) })
      : null;

  const close = () => {
    if (uploading) upload.cancel();
    onClose();
  };

  const send = async () => {
    setTried(true);
    if (problem) return;
    setFailure(null);
    const outcome = await upload.send<Submission>({ kind: 'answer', assignmentId: assignment.id, text, file });
    if (outcome.ok) {
      notify.success(translateServerMessage(t, outcome.message ?? messages.submissionSaved));
      onClose();
    } else if ('cancelled' in outcome) {
      notify.info(t('courseAssignments.answer.cancelled'));
    } else {
      const message = translateServerMessage(t, messageOf(outcome.error, messages.unexpected));
      setFailure(message);
      notify.error(message);
    }
  };

  return (
    <Modal
      opened
      onClose={close}
      title={t('courseAssignments.answer.title', { title: assignment.title })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      size="lg"
      centered
      radius="lg"
      data-testid="answer-modal"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <Stack gap="md">
          <Textarea
            label={t('courseAssignments.answer.text')}
            description={t('courseAssignments.answer.hint')}
            autosize
            minRows={5}
            maxRows={14}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            disabled={uploading}
            error={textProblem ?? (tried && problem === 'answerEmpty' ? t('messages.submissionEmpty') : undefined)}
            dir="auto"
            data-testid="answer-text"
          />
          <FilePick
            label={t('courseAssignments.answer.file')}
            value={file}
            onChange={setFile}
            disabled={uploading}
            testId="answer-file"
          />
          {previous && (
            <Text size="sm" c="dimmed" data-testid="answer-replaces">
              {t('courseAssignments.answer.replaces')}
            </Text>
          )}
          {uploading && (
            <Stack gap="xs" aria-live="polite">
              <UploadProgress state={upload.state} />
            </Stack>
          )}
          {failure && (
            <Alert
              color="red"
              radius="md"
              icon={<IconAlertCircle size={18} />}
              title={t('courseAssignments.answer.failed')}
              data-testid="answer-error"
            >
              {failure}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            {uploading ? (
              <Button variant="default" color="red" onClick={upload.cancel} data-testid="answer-cancel">
                {t('recordings.upload.cancel')}
              </Button>
            ) : (
              <Button variant="default" onClick={close}>
                {t('common.cancel')}
              </Button>
            )}
            <Button
              type="submit"
              leftSection={<IconSend size={16} />}
              loading={uploading}
              disabled={problem === 'fileTooLarge' || problem === 'fileEmpty'}
              data-testid="answer-send"
            >
              {previous ? t('courseAssignments.answer.replace') : t('courseAssignments.answer.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
