// What everyone in the room sees while it is being recorded, and who started it: the server says so
// when a recording starts and stops, and right after one joins (`action:recording_state`, kept in the
// meeting store by services/signalling.ts). The live region is always in the page so screen readers
// announce the notice when it appears.
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMeetingStore } from '../meeting-store';
import classes from './recording.module.css';

export function RecordingNotice() {
  const { t } = useTranslation();
  const recording = useMeetingStore((state) => state.recording);
  return (
    <span role="status" className={classes.notice}>
      {recording && (
        <Badge
          color="red"
          variant="filled"
          size="lg"
          className={classes.noticeBadge}
          leftSection={<span className={classes.dot} aria-hidden />}
          data-testid="recording-notice"
          data-recording-id={recording.id}
        >
          <span className={classes.noticeText}>{t('meeting.recording.notice', { name: recording.started_by_name })}</span>
        </Badge>
      )}
    </span>
  );
}
