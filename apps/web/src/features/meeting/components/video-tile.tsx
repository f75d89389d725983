// One participant's camera or screen: the video when there is a live track, else their initials.
import { memo, useEffect, useRef } from 'react';
import { ActionIcon, Avatar, Badge, Group, Loader, Text } from '@mantine/core';
import { IconMicrophoneOff, IconPin, IconPinnedOff, IconPlugConnectedX, IconScreenShare, IconVolume } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { initials } from '../initials';
import { showsPicture } from '../services/receiving';
import type { PeerStatus } from '../meeting-store';
import { HandBadge } from './classroom-lists';
import { ReactionFloat } from '../classroom-tools/reactions';
import classes from '../meeting.module.css';

interface VideoTileProps {
  stream: MediaStream | null;
  label: string;
  /** Re-render trigger: the stream object stays the same when its tracks change. */
  version: number;
  kind: 'camera' | 'screen';
  local?: boolean;
  status?: PeerStatus;
  micOff?: boolean;
  testId: string;
  peerId?: string;
  /** This person's place among the raised hands (1 = first), when their hand is up. */
  hand?: number;
  /** Heard right now (services/active-speaker.ts). */
  speaking?: boolean;
  /** Whether this tile is the pinned one, and how to pin or unpin it (remote cameras only). */
  pinned?: boolean;
  onPin?: (peerId: string) => void;
}

/** Memoised: a change to one peer (or to the grid) re-renders only the tiles whose props changed. */
export const VideoTile = memo(function VideoTile({
  stream,
  label,
  version,
  kind,
  local = false,
  status,
  micOff,
  testId,
  peerId,
  hand,
  speaking,
  pinned,
  onPin,
}: VideoTileProps) {
  const { t } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const audioRef = useRef<HTMLAudioElement>(null);
  const hasVideo = !!stream?.getVideoTracks().some(showsPicture);

  useEffect(() => {
    const video = videoRef.current;
    if (video && video.srcObject !== stream) video.srcObject = stream;
    // Remote sound plays through its own element, so a camera turned off does not silence the person.
    const audio = audioRef.current;
    if (audio && audio.srcObject !== stream) audio.srcObject = stream;
  }, [stream, version]);

  return (
    <figure
      className={classes.tile}
      data-kind={kind}
      data-local={local || undefined}
      data-testid={testId}
      data-peer-id={peerId}
      data-has-video={hasVideo || undefined}
      data-speaking={speaking || undefined}
      data-pinned={pinned || undefined}
      aria-label={label}
    >
      <video
        ref={videoRef}
        className={classes.video}
        data-mirrored={local && kind === 'camera' ? true : undefined}
        autoPlay
        playsInline
        muted
        hidden={!hasVideo}
      />
      {!local && kind === 'camera' && <audio ref={audioRef} autoPlay />}
      {!hasVideo && (
        <div className={classes.placeholder}>
          {kind === 'screen' ? <IconScreenShare size={40} /> : <Avatar size={72} radius={72} color="mooz" variant="filled">{initials(label)}</Avatar>}
        </div>
      )}
      {onPin && peerId && (
        <ActionIcon
          className={classes.pin}
          variant={pinned ? 'filled' : 'default'}
          size="md"
          radius="xl"
          aria-pressed={!!pinned}
          aria-label={t(pinned ? 'meeting.unpin' : 'meeting.pin', { name: label })}
          title={t(pinned ? 'meeting.unpin' : 'meeting.pin', { name: label })}
          onClick={() => onPin(peerId)}
          data-testid="pin-tile"
        >
          {pinned ? <IconPinnedOff size={16} aria-hidden /> : <IconPin size={16} aria-hidden />}
        </ActionIcon>
      )}
      {kind === 'camera' && <ReactionFloat peerId={local ? undefined : peerId} name={label} />}
      <figcaption className={classes.caption}>
        <Group gap={6} wrap="nowrap">
          {kind === 'screen' && <IconScreenShare size={14} aria-hidden />}
          {hand !== undefined && <HandBadge place={hand} />}
          {micOff && <IconMicrophoneOff size={14} aria-label={t('meeting.micOff')} />}
          <Text size="sm" fw={600} truncate c="white">
            {label}
          </Text>
          {speaking && <IconVolume size={14} aria-label={t('meeting.speaking')} data-testid="tile-speaking" />}
          {status === 'signalling' && <Loader size={12} color="white" aria-label={t('meeting.status.signalling')} />}
          {status === 'closed' && (
            <Badge size="xs" color="gray">
              {t('meeting.status.closed')}
            </Badge>
          )}
          {status === 'error' && (
            <Badge size="xs" color="red.9" leftSection={<IconPlugConnectedX size={10} aria-hidden />} data-testid="tile-no-media">
              {t('meeting.status.error')}
            </Badge>
          )}
        </Group>
      </figcaption>
    </figure>
  );
});
