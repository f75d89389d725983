// The stage: screen shares (and a pinned camera) large when there are any, the cameras on the stage in
// a grid that fits the count. In a large class only so many cameras fit (services/stage.ts): the last
// tile says how many more there are and opens the People list; those off the stage are still heard.
import { memo, useEffect, useMemo, useRef } from 'react';
import { VisuallyHidden } from '@mantine/core';
import { useMedia } from '../../../lib/use-media';
import { useTranslation } from 'react-i18next';
import { useMeetingStore, type Peer } from '../meeting-store';
import { useRoomControls } from '../services/room-controls';
import { chooseStage, STAGE_TILES, stageRoom } from '../services/stage';
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

  const speaking = useMeetingStore((state) => state.speaking);
  const speakerId = useMeetingStore((state) => state.speakerId);
  const pinnedId = useMeetingStore((state) => state.pinnedId);
  const narrow = useMedia('(max-width: 36em)');
  const lastSpoke = useRef(new Map<string, number>());
  useEffect(() => {
    for (const id of speaking) lastSpoke.current.set(id, Date.now());
  }, [speaking]);
  const previous = useRef<readonly string[]>([]);
  // Who is here, as one value: the stage is chosen again when that changes, not at every frame's bump.
  const everyone = remote.map((peer) => peer.peerId).join('\n');
  const room = stageRoom(remote.length, narrow ? STAGE_TILES.narrow : STAGE_TILES.wide);
  const onStage = useMemo(
    () => chooseStage(previous.current, everyone ? everyone.split('\n') : [], { speaker: speakerId, pinned: pinnedId, lastSpoke: lastSpoke.current }, room),
    [everyone, speakerId, pinnedId, room],
  );
  useEffect(() => {
    previous.current = onStage;
    const before = useMeetingStore.getState().onStage;
    if (before.length !== onStage.length || before.some((id, i) => id !== onStage[i])) useMeetingStore.setState({ onStage });
  }, [onStage]);
  const staged = new Set(onStage);
  const pinned = pinnedId ? peers[pinnedId] : undefined;
  const inGrid = onStage.map((id) => peers[id]).filter((peer): peer is Peer => !!peer && peer !== pinned);
  const offStage = remote.filter((peer) => !staged.has(peer.peerId));
  const togglePin = (id: string) => useMeetingStore.setState((state) => ({ pinnedId: state.pinnedId === id ? null : id }));

  const screens = [
    ...(screenStream ? [{ key: 'local-screen', stream: screenStream, label: t('meeting.yourScreen'), version: localVersion, local: true, peerId: undefined }] : []),
    ...remote
      .filter((peer) => peer.screenStream)
      .map((peer) => ({ key: `screen-${peer.peerId}`, stream: peer.screenStream, label: t('meeting.screenOf', { name: peer.userName }), version: peer.version, local: false, peerId: peer.peerId })),
  ];
  const portrait = useMedia('(orientation: portrait)');
  const cameras = 1 + inGrid.length + (offStage.length ? 1 : 0);
  // As square as the count allows, with the longer side along the screen's longer side.
  const long = Math.ceil(Math.sqrt(cameras));
  const short = Math.ceil(cameras / long);
  const columns = portrait ? short : long;
  const remoteTile = (peer: Peer) => (
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
      speaking={speaking.includes(peer.peerId)}
      pinned={peer === pinned}
      onPin={togglePin}
    />
  );

  return (
    <div className={classes.stage} data-with-screens={screens.length > 0 || !!pinned || undefined}>
      {(screens.length > 0 || pinned) && (
        <div className={classes.screens} data-testid="screen-area">
          {pinned && remoteTile(pinned)}
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
        {inGrid.map(remoteTile)}
        {offStage.length > 0 && (
          <button
            type="button"
            className={classes.more}
            onClick={() => useMeetingStore.setState({ panelOpen: true, panelTab: 'people' })}
            data-testid="more-on-stage"
          >
            {t('meeting.moreOnStage', { count: offStage.length })}
            <VisuallyHidden>{t('meeting.moreOnStageHint')}</VisuallyHidden>
          </button>
        )}
      </div>
      {/* Off the stage, still heard. */}
      {offStage.map((peer) => (
        <PeerSound key={peer.peerId} stream={peer.userStream} version={peer.version} />
      ))}
    </div>
  );
});

function PeerSound({ stream, version }: { stream: MediaStream | null; version: number }) {
  const ref = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    if (ref.current && ref.current.srcObject !== stream) ref.current.srcObject = stream;
  }, [stream, version]);
  return <audio ref={ref} autoPlay hidden />;
}
