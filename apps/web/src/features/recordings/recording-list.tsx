// Recordings as rows (a course's, or the caller's meeting rooms'): a tile with the length, the title
// that opens the player, the session, when, how long, how big, who recorded it, how far the viewer
// got; and, for whoever may, Delete after a confirmation.
import '@mantine/core/styles/Progress.css';
import { useState } from 'react';
import { Anchor, Button, Card, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { IconCalendarEvent, IconClock, IconDatabase, IconPlayerPlayFilled, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Recording } from '@mooz/contract/recordings';
import { CancelButton, DeleteButton } from '../../components/buttons';
import { paths } from '../../config/paths';
import { formatBytes, formatDateTime, formatDuration } from '../../lib/media-format';
import { useDeleteRecording } from './use-recordings';
import classes from './recordings.module.css';

/** How far into the recording the viewer's resume point is, 0–100. */
function watchedShare(recording: Pick<Recording, 'position_seconds' | 'duration_seconds'>): number {
  if (!(recording.duration_seconds > 0)) return 0;
  return Math.max(0, Math.min(100, Math.round((recording.position_seconds / recording.duration_seconds) * 100)));
}

export function DeleteRecordingDialog({ recording, opened, onClose, onDeleted }: {
  recording: Recording;
  opened: boolean;
  onClose(): void;
  onDeleted?(): void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteRecording();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('recordings.delete.title', { title: recording.title })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      centered
      radius="lg"
      data-testid="delete-recording"
    >
      <Stack gap="lg">
        <Text size="sm">{t('recordings.delete.text')}</Text>
        <Group justify="flex-end" gap="sm">
          <CancelButton onClick={onClose} disabled={remove.isPending} />
          <DeleteButton
            loading={remove.isPending}
            onClick={() =>
              remove.mutate(recording.id, {
                onSuccess: () => {
                  onClose();
                  onDeleted?.();
                },
              })
            }
            data-testid="delete-recording-confirm"
          >
            {t('recordings.delete.confirm')}
          </DeleteButton>
        </Group>
      </Stack>
    </Modal>
  );
}

function Fact({ icon, children, testId }: { icon: React.ReactNode; children: React.ReactNode; testId?: string }) {
  return (
    <Group gap={6} wrap="nowrap" data-testid={testId}>
      {icon}
      <Text size="sm">{children}</Text>
    </Group>
  );
}

function RecordingRow({ recording, showCourse = false }: { recording: Recording; showCourse?: boolean }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const [deleting, setDeleting] = useState(false);
  const share = watchedShare(recording);
  const resuming = share > 0 && share < 100;
  const link = paths.recording(recording.id);
  // The session's title, unless the recording's own title already says it (an upload is named after it).
  const session = recording.session_title && !recording.title.includes(recording.session_title) ? recording.session_title : null;
  const context = [showCourse ? recording.course_name : null, session].filter(Boolean).join(' · ');
  const length = recording.duration_seconds > 0 ? formatDuration(recording.duration_seconds) : null;
  return (
    <Card withBorder radius="lg" p="md" className={classes.row} data-testid="recording-row" data-recording-id={recording.id}>
      <Group gap="md" wrap="wrap" align="center">
        {/* A second way to the player for the pointer; the title is the one for keyboards and readers. */}
        <Link to={link} className={classes.thumb} tabIndex={-1} aria-hidden="true">
          <IconPlayerPlayFilled size={26} />
          {length && <span className={classes.thumbLength}>{length}</span>}
        </Link>
        <div className={classes.main}>
          <Anchor component={Link} to={link} fw={700} className={classes.title} data-testid="recording-link">
            {recording.title}
          </Anchor>
          {context && (
            <Text size="sm" c="mooz" fw={500} className={classes.wrap}>
              {context}
            </Text>
          )}
          <Group gap="md" mt={4} c="dimmed" className={classes.facts}>
            <Fact icon={<IconCalendarEvent size={15} aria-hidden="true" />} testId="recording-date">
              {formatDateTime(recording.created_at, locale)}
            </Fact>
            {length && (
              <Fact icon={<IconClock size={15} aria-hidden="true" />} testId="recording-duration">
                <span className="mooz-visually-hidden">{t('recordings.durationLabel')} </span>
                {length}
              </Fact>
            )}
            <Fact icon={<IconDatabase size={15} aria-hidden="true" />} testId="recording-size">
              <span className="mooz-visually-hidden">{t('recordings.sizeLabel')} </span>
              {formatBytes(recording.size_bytes, locale)}
            </Fact>
            <Fact icon={<IconUser size={15} aria-hidden="true" />}>{recording.recorded_by_name}</Fact>
          </Group>
          {share > 0 && (
            <Progress value={share} size="xs" mt={8} radius="xl" className={classes.watched} aria-label={t('recordings.watchedShare', { share })} />
          )}
        </div>
        <Group gap="xs" className={classes.actions}>
          <Button
            component={Link}
            to={link}
            leftSection={<IconPlayerPlayFilled size={14} />}
            aria-label={t(resuming ? 'recordings.resumeNamed' : 'recordings.watchNamed', { title: recording.title })}
          >
            {resuming ? t('recordings.resume') : t('recordings.watch')}
          </Button>
          {recording.can_delete && (
            <DeleteButton
              variant="light"
              onClick={() => setDeleting(true)}
              aria-label={t('recordings.delete.named', { title: recording.title })}
              data-testid="delete-recording-button"
            >
              {t('recordings.delete.action')}
            </DeleteButton>
          )}
        </Group>
      </Group>
      {deleting && <DeleteRecordingDialog recording={recording} opened onClose={() => setDeleting(false)} />}
    </Card>
  );
}

export function RecordingList({ recordings, showCourse }: { recordings: Recording[]; showCourse?: boolean }) {
  return (
    <Stack gap="sm" data-testid="recording-list">
      {recordings.map((recording) => (
        <RecordingRow key={recording.id} recording={recording} showCourse={showCourse} />
      ))}
    </Stack>
  );
}
