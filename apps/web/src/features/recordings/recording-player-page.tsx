// The player (/recordings/:id): the video streams from its signed link (HTTP Range, no bearer token),
// with the browser's own controls in our frame, a speed choice, keyboard shortcuts (listed in a small
// help), a download, and resuming where the viewer stopped: the video seeks there by itself once it
// has loaded, and says so with a way back to the start. It reports watch progress (use-watch-progress)
// and asks for fresh links before the signed ones expire, carrying on from the same moment.
//
// No bookmark star: bookmarks are the server's suggestions (the app's pages and the courses the caller
// can see), and single recordings are not among them.
import '../../styles/mantine-more';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Kbd,
  Popover,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import '@mantine/core/styles/Table.css';
import {
  IconAlertCircle,
  IconCalendarEvent,
  IconClock,
  IconDatabase,
  IconDownload,
  IconKeyboard,
  IconPlayerPauseFilled,
  IconPlayerPlayFilled,
  IconPlayerSkipBack,
  IconRefresh,
  IconRewindBackward10,
  IconRewindForward10,
  IconTrash,
  IconUser,
  IconVolume,
  IconVolumeOff,
} from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { messages } from '@mooz/contract/messages';
import type { Recording } from '@mooz/contract/recordings';
import { ListError } from '../../components/list-states';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api';
import { isolate } from '../../lib/bidi';
import { formatBytes, formatDateTime, formatDuration } from '../../lib/media-format';
import { usePageTitle } from '../../lib/page-title';
import { translateServerMessage } from '../../lib/server-message';
import { RecordingNotFound, RecordingsCrumbs } from './course-recordings-page';
import { DeleteRecordingDialog } from './recording-list';
import { commandFor, focusKindOf, nextRate, playbackRates, shortcutList, type PlayerCommand } from './shortcuts';
import { isNotFound, useRecording } from './use-recordings';
import { useWatchProgress } from './use-watch-progress';
import classes from './recordings.module.css';
import { numberFormat } from '../../lib/intl';

/** Links are asked for again this long before they expire (they live hours; a refresh is cheap). */
const refreshBeforeExpiryMs = 5 * 60_000;
/** A resume point this close to either end is not worth resuming: start from the beginning. */
const resumeMarginSeconds = 5;

/** Where to resume, or null to start at the beginning. */
export function resumePoint(position: number, duration: number): number | null {
  if (!(position >= resumeMarginSeconds)) return null;
  if (Number.isFinite(duration) && duration > 0 && position > duration - resumeMarginSeconds) return null;
  return position;
}

interface Flash {
  icon: React.ReactNode;
  text: string;
  at: number;
}

function ShortcutsHelp({ opened, onChange }: { opened: boolean; onChange(opened: boolean): void }) {
  const { t } = useTranslation();
  return (
    <Popover opened={opened} onChange={onChange} position="bottom-end" withArrow shadow="md" radius="md" trapFocus={false} returnFocus>
      <Popover.Target>
        <Button variant="default" leftSection={<IconKeyboard size={16} />} onClick={() => onChange(!opened)} data-testid="shortcuts-button">
          {t('recordings.keys.title')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="shortcuts-help">
        <Table verticalSpacing={4} horizontalSpacing="xs" withRowBorders={false}>
          <Table.Tbody>
            {shortcutList.map((item) => (
              <Table.Tr key={item.labelKey}>
                <Table.Td className={classes.keys}>
                  {item.keys.map((key, index) => (
                    <span key={key}>
                      {index > 0 && ' '}
                      <Kbd size="xs">{key === 'Space' ? t('recordings.keys.space') : key}</Kbd>
                    </span>
                  ))}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{t(item.labelKey)}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="xs" c="dimmed" mt={6} maw={280}>
          {t('recordings.keys.note')}
        </Text>
      </Popover.Dropdown>
    </Popover>
  );
}

function Player({ recording, refresh }: { recording: Recording; refresh(): void }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const navigate = useNavigate();
  const frame = useRef<HTMLDivElement>(null);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [src, setSrc] = useState(recording.url);
  const [rate, setRate] = useState(1);
  const [helpOpened, setHelpOpened] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [resumedFrom, setResumedFrom] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const [flash, setFlash] = useState<Flash | null>(null);
  // On a phone the six speeds take a row of their own, each a share of it.
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  /** Where to carry on after the source changes (a refreshed link): time, speed, and whether it played. */
  const restore = useRef<{ time: number; playing: boolean } | null>(null);
  const resumeDecided = useRef(false);
  const refreshedForError = useRef(false);

  useWatchProgress(video, recording.id);

  // Fresh links arrived: swap the source and carry on from the same moment.
  useEffect(() => {
    if (recording.url === src) return;
    if (video) restore.current = { time: video.currentTime, playing: !video.paused && !video.ended };
    setFailed(false);
    setSrc(recording.url);
  }, [recording.url, src, video]);

  // Ask for fresh links before these expire (a long lecture, a paused tab left open).
  useEffect(() => {
    const expires = new Date(recording.url_expires_at).getTime();
    if (Number.isNaN(expires)) return;
    const wait = Math.min(Math.max(expires - Date.now() - refreshBeforeExpiryMs, 10_000), 2_147_483_647);
    const timer = setTimeout(refresh, wait);
    return () => clearTimeout(timer);
  }, [recording.url_expires_at, refresh]);

  const onLoadedMetadata = (event: React.SyntheticEvent<HTMLVideoElement>) => {
    const video = event.currentTarget;
    video.playbackRate = rate;
    const carryOn = restore.current;
    if (carryOn) {
      restore.current = null;
      video.currentTime = carryOn.time;
      if (carryOn.playing) void video.play().catch(() => undefined);
      return;
    }
    if (resumeDecided.current) return;
    resumeDecided.current = true;
    const duration = Number.isFinite(video.duration) ? video.duration : recording.duration_seconds;
    const at = resumePoint(recording.position_seconds, duration);
    if (at !== null) {
      video.currentTime = at;
      setResumedFrom(at);
    }
  };

  const onError = (event: React.SyntheticEvent<HTMLVideoElement>) => {
    const code = event.currentTarget.error?.code;
    // A network failure, or a source refused (an expired link answers 403, which the element reports as
    // unsupported), may be the link's age (a laptop that slept): ask for a fresh one once before giving
    // up. A file that does not decode will not decode from a new link either.
    const linkMayHaveExpired = code === MediaError.MEDIA_ERR_NETWORK || code === MediaError.MEDIA_ERR_SRC_NOT_SUPPORTED;
    if (linkMayHaveExpired && !refreshedForError.current) {
      refreshedForError.current = true;
      // Carry on from here; before the resume point was applied, the fresh source still gets it.
      if (resumeDecided.current) restore.current = { time: event.currentTarget.currentTime, playing: false };
      refresh();
      return;
    }
    setFailed(true);
  };

  const show = useCallback((icon: React.ReactNode, text: string) => setFlash({ icon, text, at: Date.now() }), []);
  useEffect(() => {
    if (!flash) return;
    const timer = setTimeout(() => setFlash(null), 700);
    return () => clearTimeout(timer);
  }, [flash]);

  const changeRate = useCallback(
    (next: number) => {
      if (video) {
        video.playbackRate = next;
        video.defaultPlaybackRate = next;
      }
      setRate(next);
    },
    [video],
  );

  const run = useCallback(
    (command: PlayerCommand) => {
      if (!video) return;
      switch (command.kind) {
        case 'toggle-play':
          if (video.paused || video.ended) {
            void video.play().catch(() => undefined);
            show(<IconPlayerPlayFilled size={28} />, t('recordings.flash.play'));
          } else {
            video.pause();
            show(<IconPlayerPauseFilled size={28} />, t('recordings.flash.pause'));
          }
          return;
        case 'seek': {
          const end = Number.isFinite(video.duration) ? video.duration : recording.duration_seconds;
          video.currentTime = Math.max(0, Math.min(end || Infinity, video.currentTime + command.by));
          show(
            command.by < 0 ? <IconRewindBackward10 size={28} /> : <IconRewindForward10 size={28} />,
            t(command.by < 0 ? 'recordings.flash.back' : 'recordings.flash.forward', { seconds: Math.abs(command.by) }),
          );
          return;
        }
        case 'fullscreen':
          if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
          else void frame.current?.requestFullscreen?.().catch(() => undefined);
          return;
        case 'mute':
          video.muted = !video.muted;
          show(video.muted ? <IconVolumeOff size={28} /> : <IconVolume size={28} />, t(video.muted ? 'recordings.flash.muted' : 'recordings.flash.unmuted'));
          return;
        case 'speed': {
          const next = nextRate(video.playbackRate, command.step);
          changeRate(next);
          show(<Text fw={800} fz={22}>{rateLabel(next, locale)}</Text>, t('recordings.flash.speed', { rate: rateLabel(next, locale) }));
          return;
        }
        case 'help':
          setHelpOpened((opened) => !opened);
          return;
      }
    },
    [video, recording.duration_seconds, show, t, changeRate, locale],
  );

  useEffect(() => {
    if (deleting) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      // The help stays put while the focus is on its button; Escape closes it from anywhere.
      if (event.key === 'Escape' && helpOpened) {
        setHelpOpened(false);
        return;
      }
      const command = commandFor(event, focusKindOf(event.target));
      if (!command) return;
      event.preventDefault();
      run(command);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [run, deleting, helpOpened]);

  // The browser's own speed menu changes it too.
  useEffect(() => {
    if (!video) return;
    const onRate = () => setRate(video.playbackRate);
    video.addEventListener('ratechange', onRate);
    return () => video.removeEventListener('ratechange', onRate);
  }, [video]);

  // The course and the session, unless the title already names the session (an upload is named after it).
  const session = recording.session_title && !recording.title.includes(recording.session_title) ? recording.session_title : null;
  const context = [recording.course_name, session].filter(Boolean).join(' · ');

  const startOver = () => {
    if (video) video.currentTime = 0;
    setResumedFrom(null);
    video?.focus();
  };

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
          // It plays again: a later failure may be a link that expired since, worth one more refresh.
          onPlaying={() => (refreshedForError.current = false)}
          data-testid="recording-video"
        />
        {flash && (
          <div key={flash.at} className={classes.flash} aria-hidden="true">
            {flash.icon}
          </div>
        )}
        <span className={classes.srOnly} role="status">
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
              onClick={() => {
                refreshedForError.current = false;
                setFailed(false);
                refresh();
              }}
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
      <Card withBorder radius="lg" p="lg">
        <Stack gap="sm">
          <Title order={1} size="h3" className={classes.wrap} data-testid="recording-title">
            {recording.title}
          </Title>
          {context && (
            <Text c="mooz" fw={500} className={classes.wrap}>
              {context}
            </Text>
          )}
          <Group gap="lg" c="dimmed" className={classes.facts}>
            <Group gap={6} wrap="nowrap">
              <IconCalendarEvent size={16} aria-hidden="true" />
              <Text size="sm">{formatDateTime(recording.created_at, locale, true)}</Text>
            </Group>
            {recording.duration_seconds > 0 && (
              <Group gap={6} wrap="nowrap">
                <IconClock size={16} aria-hidden="true" />
                <Text size="sm">
                  <span className={classes.srOnly}>{t('recordings.durationLabel')} </span>
                  {formatDuration(recording.duration_seconds)}
                </Text>
              </Group>
            )}
            <Group gap={6} wrap="nowrap">
              <IconDatabase size={16} aria-hidden="true" />
              <Text size="sm">
                <span className={classes.srOnly}>{t('recordings.sizeLabel')} </span>
                {formatBytes(recording.size_bytes, locale)}
              </Text>
            </Group>
            <Group gap={6} wrap="nowrap">
              <IconUser size={16} aria-hidden="true" />
              <Text size="sm">{t('recordings.recordedBy', { name: recording.recorded_by_name })}</Text>
            </Group>
          </Group>
        </Stack>
      </Card>
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

/** "1.5×" as the user writes numbers ("1,5×" in French). */
export function rateLabel(rate: number, locale: string): string {
  let number: string;
  try {
    number = numberFormat(locale, { maximumFractionDigits: 2 }).format(rate);
  } catch {
    number = String(rate);
  }
  // Isolated, or a right-to-left layout shows "×1,5".
  return isolate(`${number}×`);
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
