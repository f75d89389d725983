// "Upload recording" on a session: a dialog to pick a WebM file from disk, send it with a progress bar
// (percentage and bytes) and a Cancel that stops it, then say how it went (the spec's uploading,
// uploadSuccess and uploadError). Closing the dialog while the file is going cancels the upload.
import '@mantine/core/styles/Progress.css';
import { useEffect, useId, useState, type DragEvent } from 'react';
import { Alert, Button, Group, Modal, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconFileUpload, IconPlayerPlay, IconUpload } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../config/paths';
import { formatBytes } from '../lib/media-format';
import { looksLikeWebm, readsLikeWebm, useRecordingUpload, type UploadState } from '../lib/recording-upload';
import classes from './upload-recording.module.css';

const percentOf = (state: UploadState) =>
  state.status === 'uploading' ? (state.total > 0 ? Math.floor((state.sent / state.total) * 100) : 100) : state.status === 'uploadSuccess' ? 100 : 0;

function FilePicker({ file, onChoose, invalid }: {
  file: File | null;
  onChoose(file: File): void;
  /** Why the file cannot go: not a WebM by its name or type, or by its first bytes. */
  invalid: false | 'name' | 'bytes';
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [dragging, setDragging] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) onChoose(dropped);
  };
  return (
    <div>
      <input
        id={id}
        type="file"
        accept="video/webm,.webm"
        // In the page (keyboard and screen readers reach it) but hidden: its label draws it.
        className={`mooz-visually-hidden ${classes.input}`}
        aria-describedby={`${id}-hint`}
        aria-invalid={Boolean(invalid) || undefined}
        onChange={(event) => {
          const chosen = event.currentTarget.files?.[0];
          if (chosen) onChoose(chosen);
          // Choosing the same file again after an error still fires a change.
          event.currentTarget.value = '';
        }}
        data-testid="upload-file-input"
      />
      <label
        htmlFor={id}
        className={classes.dropzone}
        data-dragging={dragging || undefined}
        data-invalid={Boolean(invalid) || undefined}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        <IconFileUpload size={32} stroke={1.5} aria-hidden="true" />
        {file ? (
          <>
            <Text fw={600} className={classes.fileName} data-testid="upload-file-name">
              {file.name}
            </Text>
            <Text size="sm" c="dimmed">
              {formatBytes(file.size, i18n.language)} · {t('recordings.upload.change')}
            </Text>
          </>
        ) : (
          <Text fw={600}>{t('recordings.upload.choose')}</Text>
        )}
      </label>
      <Text id={`${id}-hint`} size="xs" c={invalid ? 'red' : 'dimmed'} mt={6}>
        {invalid === 'bytes' ? t('recordings.upload.notWebmInside') : invalid ? t('recordings.upload.notWebm') : t('recordings.upload.hint')}
      </Text>
    </div>
  );
}

/** The bar, the percentage and the bytes of an upload under way or done (also the assignments’ files). */
export function UploadProgress({ state }: { state: UploadState }) {
  const { t, i18n } = useTranslation();
  const percent = percentOf(state);
  const total = state.status === 'uploading' || state.status === 'uploadSuccess' ? state.total : 0;
  const sent = state.status === 'uploading' ? state.sent : total;
  return (
    <Stack gap={6}>
      <Progress
        value={percent}
        size="lg"
        radius="xl"
        striped={state.status === 'uploading'}
        animated={state.status === 'uploading'}
        color={state.status === 'uploadSuccess' ? 'green' : undefined}
        aria-label={t('recordings.upload.progressLabel')}
        data-testid="upload-progress"
        data-percent={percent}
      />
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600} data-testid="upload-percent">
          {t('recordings.upload.percent', { percent })}
        </Text>
        <Text size="sm" c="dimmed" data-testid="upload-bytes">
          {t('recordings.upload.bytes', { sent: formatBytes(sent, i18n.language), total: formatBytes(total, i18n.language) })}
        </Text>
      </Group>
      {state.status === 'uploading' && percent === 100 && (
        <Text size="sm" c="dimmed" role="status">
          {t('recordings.upload.processing')}
        </Text>
      )}
    </Stack>
  );
}

function UploadRecordingModal({ roomId, sessionTitle, opened, onClose }: {
  roomId: string;
  sessionTitle: string;
  opened: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { state, upload, cancel, reset } = useRecordingUpload(roomId);
  const [file, setFile] = useState<File | null>(null);
  // Judged by its name and type at once, then by its first bytes (a file of zeros named .webm is no video).
  const [bytesJudged, setBytesJudged] = useState<{ file: File; webm: boolean } | null>(null);
  useEffect(() => {
    if (!file) return;
    let current = true;
    void readsLikeWebm(file)
      .catch(() => false)
      .then((webm) => current && setBytesJudged({ file, webm }));
    return () => {
      current = false;
    };
  }, [file]);
  const judged = bytesJudged?.file === file ? bytesJudged.webm : null;
  const invalid = file === null ? false : !looksLikeWebm(file) ? 'name' : judged === false ? 'bytes' : false;
  const close = () => {
    if (state.status === 'uploading') cancel();
    reset();
    setFile(null);
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('recordings.upload.title', { title: sessionTitle })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      centered
      radius="lg"
      data-testid="upload-recording"
    >
      <Stack gap="md" aria-live="polite">
        {state.status === 'idle' && (
          <>
            <FilePicker file={file} onChoose={setFile} invalid={invalid} />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close}>
                {t('common.cancel')}
              </Button>
              <Button leftSection={<IconUpload size={16} />} disabled={!file || invalid !== false || judged === null} onClick={() => file && void upload(file)} data-testid="upload-submit">
                {t('recordings.upload.submit')}
              </Button>
            </Group>
          </>
        )}
        {state.status === 'uploading' && (
          <>
            <Text fw={600} className={classes.fileName}>
              {t('recordings.upload.sending', { name: file?.name ?? '' })}
            </Text>
            <UploadProgress state={state} />
            <Group justify="flex-end">
              <Button variant="default" color="red" onClick={cancel} data-testid="upload-cancel">
                {t('recordings.upload.cancel')}
              </Button>
            </Group>
          </>
        )}
        {state.status === 'uploadSuccess' && (
          <>
            <Group gap="sm" wrap="nowrap" data-testid="upload-success">
              <ThemeIcon color="green" variant="light" size="lg" radius="xl">
                <IconCircleCheck size={20} />
              </ThemeIcon>
              <Text fw={600}>{t('recordings.upload.done')}</Text>
            </Group>
            <UploadProgress state={state} />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close}>
                {t('common.close')}
              </Button>
              {state.recording && (
                <Button component={Link} to={paths.recording(state.recording.id)} leftSection={<IconPlayerPlay size={16} />} data-testid="upload-watch">
                  {t('recordings.upload.watch')}
                </Button>
              )}
            </Group>
          </>
        )}
        {state.status === 'uploadError' && (
          <>
            <Alert color="red" radius="md" icon={<IconAlertCircle size={18} />} title={t('recordings.upload.failedTitle')} data-testid="upload-error">
              {state.message}
            </Alert>
            <Group justify="flex-end" gap="sm">
              <Button
                variant="default"
                onClick={() => {
                  reset();
                  setFile(null);
                }}
              >
                {t('recordings.upload.another')}
              </Button>
              {file && (
                <Button leftSection={<IconUpload size={16} />} onClick={() => void upload(file)} data-testid="upload-retry">
                  {t('common.retry')}
                </Button>
              )}
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}

/** The session's "Upload recording" button and its dialog. */
export function UploadRecordingButton({ roomId, sessionTitle }: { roomId: string; sessionTitle: string }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="light"
        leftSection={<IconUpload size={16} />}
        onClick={() => setOpened(true)}
        aria-label={t('recordings.upload.named', { title: sessionTitle })}
        data-testid="upload-recording-button"
      >
        {t('recordings.upload.action')}
      </Button>
      {opened && <UploadRecordingModal roomId={roomId} sessionTitle={sessionTitle} opened onClose={() => setOpened(false)} />}
    </>
  );
}
