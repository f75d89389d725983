// The Record button of the meeting's controls, for who may record (the room's host, admins): it
// starts a recording; while one runs it is a Stop button with a red dot and the time recorded, and a
// badge says how much is waiting to upload when the network falls behind. As elsewhere in the
// controls bar, the button's name says what it does now ("Start recording" / "Stop recording 0:12")
// rather than being a pressed toggle.
import { useEffect, useState } from 'react';
import { ActionIcon, Badge, Button, VisuallyHidden } from '@mantine/core';
import { Hint } from '../../../components/hint';
import { IconCloudUpload, IconPlayerRecordFilled, IconPlayerStopFilled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useStoredUser } from '../../../lib/use-stored-auth';
import { useMeetingStore } from '../meeting-store';
import { canRecord, startRecording, stopRecording, useRecorderStore } from './recorder';
import meetingClasses from '../meeting.module.css';
import classes from './recording.module.css';
import { numberFormat } from '../../../lib/intl';

/** "m:ss", or "h:mm:ss" from an hour on. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const two = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
}

/** The backlog shows once more than this many chunks wait: the upload is falling behind the recording. */
const backlogShownAfterChunks = 2;

export function RecordControl({ roomId, size }: { roomId: string; size: number }) {
  const { t, i18n } = useTranslation();
  const user = useStoredUser();
  const room = useMeetingStore((state) => state.room);
  const phase = useRecorderStore((state) => state.phase);
  const startedAt = useRecorderStore((state) => state.startedAt);
  const backlog = useRecorderStore((state) => state.backlog);
  const recordingHere = useRecorderStore((state) => state.roomId === roomId);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (phase !== 'recording') return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [phase]);

  const roomRecorded = useMeetingStore((state) => state.recording !== null);
  if (!canRecord(user, room)) return null;

  if ((phase === 'recording' || phase === 'stopping') && recordingHere && startedAt !== null) {
    const elapsed = formatElapsed(now - startedAt);
    const waiting = numberFormat(i18n.language, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }).format(backlog.bytes / 1e6);
    return (
      <>
        <Hint label={phase === 'stopping' ? t('meeting.recording.stopping') : t('meeting.recording.stopHint')}>
          <Button
            radius="xl"
            h={size}
            color="red"
            variant="filled"
            className={`${meetingClasses.control} ${classes.stop}`}
            leftSection={<span className={classes.dot} aria-hidden />}
            rightSection={<IconPlayerStopFilled size={16} aria-hidden />}
            loading={phase === 'stopping'}
            onClick={() => void stopRecording()}
            aria-label={phase === 'stopping' ? t('meeting.recording.stopping') : undefined}
            data-testid="stop-recording"
          >
            {/* Named by its content, "Stop recording 0:12": an aria-label holding the time would be a second
                copy of it, a tick behind or ahead of the one shown. While it saves, the label says so. */}
            <VisuallyHidden>{t('meeting.recording.stopHint')} </VisuallyHidden>
            <span dir="ltr" aria-hidden={phase === 'stopping' || undefined}>
              {elapsed}
            </span>
          </Button>
        </Hint>
        {backlog.bytes > 0 && backlog.chunks > backlogShownAfterChunks && (
          <Badge color="yellow" autoContrast size="lg" className={classes.backlog} leftSection={<IconCloudUpload size={14} aria-hidden />} role="status" data-testid="recording-backlog">
            {t('meeting.recording.backlog', { size: waiting })}
          </Badge>
        )}
      </>
    );
  }

  // Someone else (another host, an admin) records the room: one recording at a time (the server says 409).
  if (roomRecorded && phase === 'idle') return null;

  const label = phase === 'starting' ? t('meeting.recording.starting') : t('meeting.recording.start');
  return (
    <Hint label={label}>
      <ActionIcon
        size={size}
        radius="xl"
        variant="default"
        className={meetingClasses.control}
        loading={phase === 'starting'}
        disabled={phase !== 'idle'}
        onClick={() => void startRecording(roomId)}
        aria-label={label}
        data-testid="start-recording"
      >
        <IconPlayerRecordFilled size={22} className={classes.recordDot} aria-hidden />
      </ActionIcon>
    </Hint>
  );
}
