// The player (/recordings/:id): the video streams from its signed link (HTTP Range, no bearer token),
// with the browser's own controls in our frame, a speed choice, keyboard shortcuts (listed in a small
// help), a download, and resuming where the viewer stopped: the video seeks there by itself once it
// has loaded, and says so with a way back to the start. It reports watch progress (use-watch-progress)
// and asks for fresh links before the signed ones expire, carrying on from the same moment.
//
// No bookmark star: bookmarks are the server's suggestions (the app's pages and the courses the caller
// can see), and single recordings are not among them.
import '../../styles/mantine-more';
import { useCallback, useRef, useState } from 'react';
import { Alert, Anchor, Button, Group, SegmentedControl, Skeleton, Stack, Text, UnstyledButton } from '@mantine/core';
import '@mantine/core/styles/Table.css';
import { IconAlertCircle, IconDownload, IconPlayerSkipBack, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useMedia } from '../../lib/use-media';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { messages } from '@mooz/contract/messages';
import type { Recording } from '@mooz/contract/recordings';
import { ListError } from '../../components/list-states';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api';
import { formatDuration } from '../../lib/media-format';
import { usePageTitle } from '../../lib/page-title';
import { translateServerMessage } from '../../lib/server-message';
import { RecordingNotFound, RecordingsCrumbs } from './course-recordings-page';
import { RecordingFacts } from './recording-facts';
import { DeleteRecordingDialog } from './recording-list';
import { ShortcutsHelp } from './shortcuts-help';
import { playbackRates } from './shortcuts';
import { isNotFound, useRecording } from './use-recordings';
import { rateLabel, usePlayerControls } from './use-player-controls';
import { usePlayerSource } from './use-player-source';
import { useWatchProgress } from './use-watch-progress';
import classes from './recordings.module.css';

function Player({ recording, refresh }: { recording: Recording; refresh(): void }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const navigate = useNavigate();
  const frame = useRef<HTMLDivElement>(null);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [rate, setRate] = useState(1);
  const [deleting, setDeleting] = useState(false);
  // On a phone the six speeds take a row of their own, each a share of it.
  const phone = useMedia('(max-width: 36em)');

  useWatchProgress(video, recording.id);
  const { src, failed, resumedFrom, onLoadedMetadata, onError, onPlaying, retry, startOver } = usePlayerSource(recording, refresh, video, rate);
  const { flash, helpOpened, setHelpOpened, changeRate } = usePlayerControls({ video, frame, durationSeconds: recording.duration_seconds, keysOff: deleting, setRate });

  return (
    <Stack gap="md">
      <div ref={frame} className={classes.frame} data-testid="player-frame">
        <video
          ref={setVideo}
          src={src}
          controls
          preload="metadata"
          playsInline
          className={classes.video}
          aria-label={t('recordings.videoLabel', { title: recording.title })}
          onLoadedMetadata={onLoadedMetadata}
          onError={onError}
          onPlaying={onPlaying}
          data-testid="recording-video"
        />
        {flash && (
          <div key={flash.at} className={classes.flash} aria-hidden="true">
            {flash.icon}
          </div>
        )}
        <span className="mooz-visually-hidden" role="status">
          {flash?.text ?? ''}
        </span>
      </div>
      {failed && (
        <Alert color="red" radius="md" icon={<IconAlertCircle size={18} />} title={t('recordings.playFailed.title')} data-testid="player-error">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{t('recordings.playFailed.text')}</Text>
            <Button
              size="xs"
              variant="white"
              color="red"
              leftSection={<IconRefresh size={14} />}
              onClick={retry}
            >
              {t('common.retry')}
            </Button>
          </Group>
        </Alert>
      )}
      {resumedFrom !== null && (
        <Group gap="sm" className={classes.resume} data-testid="resume-notice" role="status">
          <Text size="sm">{t('recordings.resumed', { time: formatDuration(resumedFrom) })}</Text>
          <UnstyledButton className={classes.linkButton} onClick={startOver} data-testid="start-over">
            <IconPlayerSkipBack size={14} aria-hidden="true" /> {t('recordings.startOver')}
          </UnstyledButton>
        </Group>
      )}
      <div className={classes.toolbar}>
        <div className={classes.speed}>
          <Text size="sm" fw={600} id="speed-label">
            {t('recordings.speed')}
          </Text>
          <SegmentedControl
            size={phone ? 'xs' : 'sm'}
            radius="xl"
            fullWidth={phone}
            className={classes.speedControl}
            value={String(rate)}
            onChange={(value) => changeRate(Number(value))}
            data={playbackRates.map((value) => ({ value: String(value), label: rateLabel(value, locale) }))}
            aria-labelledby="speed-label"
            data-testid="speed-control"
          />
        </div>
        <Group gap="xs">
          <ShortcutsHelp opened={helpOpened} onChange={setHelpOpened} />
          <Button component="a" href={recording.download_url} download variant="default" leftSection={<IconDownload size={16} />} data-testid="download-recording">
            {t('recordings.download')}
          </Button>
          {recording.can_delete && (
            <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={() => setDeleting(true)} data-testid="delete-recording-button">
              {t('recordings.delete.action')}
            </Button>
          )}
        </Group>
      </div>
      <RecordingFacts recording={recording} />
      {deleting && (
        <DeleteRecordingDialog
          recording={recording}
          opened
          onClose={() => setDeleting(false)}
          onDeleted={() => void navigate(recording.course_id ? paths.courseRecordings(recording.course_id) : paths.recordings, { replace: true })}
        />
      )}
    </Stack>
  );
}

export function RecordingPlayerPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const recordingId = Number(id);
  const recording = useRecording(recordingId);
  usePageTitle(recording.data?.data.title);
  const { refetch } = recording;
  const refresh = useCallback(() => void refetch(), [refetch]);

  if (!Number.isInteger(recordingId) || recordingId <= 0 || (recording.isError && isNotFound(recording.error))) return <RecordingNotFound />;

  const data = recording.data?.data;
  return (
    <div data-testid="recording-player-page" className={classes.playerPage}>
      <RecordingsCrumbs>
        {data?.course_id ? (
          <Anchor component={Link} to={paths.courseRecordings(data.course_id)} size="sm" className={classes.crumbLink}>
            {data.course_name ?? t('recordings.courseTitle')}
          </Anchor>
        ) : null}
      </RecordingsCrumbs>
      {recording.isPending ? (
        <Stack gap="md" aria-busy="true" aria-label={t('common.loading')} data-testid="player-loading">
          <Skeleton className={classes.frame} radius="lg" />
          <Skeleton height={36} radius="md" />
          <Skeleton height={120} radius="lg" />
        </Stack>
      ) : recording.isError && !data ? (
        <ListError
          testId="player-load-error"
          title={t('recordings.errorTitle')}
          message={translateServerMessage(t, messageOf(recording.error, messages.failedToFetchRecordedVideos))}
          onRetry={refresh}
          retrying={recording.isFetching}
        />
      ) : data ? (
        <Player recording={data} refresh={refresh} />
      ) : null}
    </div>
  );
}
