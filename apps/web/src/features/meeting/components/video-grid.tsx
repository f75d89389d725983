// The stage: screen shares large when there are any, everyone's camera in a grid that fits the count.
import { memo } from 'react';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useMeetingStore } from '../meeting-store';
import { useRoomControls } from '../services/room-controls';
import { VideoTile } from './video-tile';
import classes from '../meeting.module.css';

/** Memoised (it takes no props): the room page re-rendering does not redo the stage. */
export const VideoGrid = memo(function VideoGrid() {
  const { t } = useTranslation();
  const peers = useMeetingStore((state) => state.peers);
  const localStream = useMeetingStore((state) => state.localStream);
  const screenStream = useMeetingStore((state) => state.screenStream);
  const localVersion = useMeetingStore((state) => state.localVersion);
  const userName = useMeetingStore((state) => state.userName);
  const remote = Object.values(peers);
  const hands = useRoomControls((state) => state.controls?.hands);
  const peerId = useMeetingStore((state) => state.peerId);
  /** Place among the raised hands, 1-based; undefined when the hand is down. */
  const handOf = (id: string) => {
    const index = hands?.findIndex((hand) => hand.userId === id) ?? -1;
    return index >= 0 ? index + 1 : undefined;
  };
  const localAudio = localStream?.getAudioTracks().find((track) => track.readyState === 'live');

  const screens = [
    ...(screenStream ? [{ key: 'local-screen', stream: screenStream, label: t('meeting.yourScreen'), version: localVersion, local: true, peerId: undefined }] : []),
    ...remote
      .filter((peer) => peer.screenStream)
      .map((peer) => ({ key: `screen-${peer.peerId}`, stream: peer.screenStream, label: t('meeting.screenOf', { name: peer.userName }), version: peer.version, local: false, peerId: peer.peerId })),
  ];
  const portrait = useMediaQuery('(orientation: portrait)') ?? false;
  const cameras = 1 + remote.length;
  // As square as the count allows, with the longer side along the screen's longer side.
  const long = Math.ceil(Math.sqrt(cameras));
  const short = Math.ceil(cameras / long);
  const columns = portrait ? short : long;

  return (
    <div className={classes.stage} data-with-screens={screens.length > 0 || undefined}>
      {screens.length > 0 && (
        <div className={classes.screens} data-testid="screen-area">
          {screens.map((screen) => (
            <VideoTile
              key={screen.key}
              stream={screen.stream}
              label={screen.label}
              version={screen.version}
              kind="screen"
              local={screen.local}
              testId={screen.local ? 'local-screen-tile' : 'remote-screen-tile'}
              peerId={screen.peerId}
            />
          ))}
        </div>
      )}
      <div
        className={classes.grid}
        style={{ '--mooz-grid-columns': columns, '--mooz-grid-rows': Math.ceil(cameras / columns) } as React.CSSProperties}
        data-count={cameras}
        data-testid="video-grid"
      >
        <VideoTile
          stream={localStream}
          label={`${userName} (${t('meeting.you')})`}
          version={localVersion}
          kind="camera"
          local
          micOff={!localAudio || !localAudio.enabled}
          hand={handOf(peerId)}
          testId="local-tile"
        />
        {remote.map((peer) => (
          <VideoTile
            key={peer.peerId}
            stream={peer.userStream}
            label={peer.userName}
            version={peer.version}
            kind="camera"
            status={peer.status}
            hand={handOf(peer.peerId)}
            testId="remote-tile"
            peerId={peer.peerId}
          />
        ))}
      </div>
    </div>
  );
});
