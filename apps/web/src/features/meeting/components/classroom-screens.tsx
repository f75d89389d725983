// The screens of someone a class keeps out: waiting in the lobby until a host admits them, and the
// class closed by its host.
import { Button, Loader } from '@mantine/core';
import { IconArrowLeft, IconDoorExit, IconUserMinus } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { fillMessage, messages } from '@mooz/contract/messages';
import { StatusPage } from '../../../components/status-page';
import { paths } from '../../../config/paths';
import { translateServerMessage } from '../../../lib/server-message';
import { leaveRoom } from '../services/meeting';
import { useRoomControls } from '../services/room-controls';
import classes from '../meeting.module.css';

/** This tab waits for a host to let it in. */
export function LobbyScreen() {
  const { t } = useTranslation();
  const waiting = useRoomControls((state) => state.waiting);
  return (
    <div className={classes.centered}>
      <StatusPage
        icon={<Loader size={40} />}
        title={waiting?.roomName ?? t('meeting.classroom.lobbyTitle')}
        description={
          <span role="status" data-testid="lobby-waiting">
            {t('messages.waitingForHost', { defaultValue: messages.waitingForHost })}
          </span>
        }
        actions={
          <Button
            variant="default"
            leftSection={<IconArrowLeft size={16} className={classes.flipInRtl} />}
            onClick={() => {
              useRoomControls.setState({ waiting: null });
              leaveRoom();
            }}
            data-testid="lobby-cancel"
          >
            {t('common.cancel')}
          </Button>
        }
        testId="lobby-screen"
      />
    </div>
  );
}

/** This tab's class or ad hoc meeting was closed: removed by a host, or ended for everyone. */
export function RoomClosedScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const closed = useRoomControls((state) => state.closed);
  // The controls last heard stay until the next room: they say whether this was a class or a meeting.
  const meetingRoom = useRoomControls((state) => state.controls?.classSession === false);
  if (!closed) return null;
  const removed = closed.reason === 'removed';
  const text = meetingRoom
    ? t(removed ? 'meeting.classroom.removedFromMeetingBy' : 'meeting.classroom.meetingEndedBy', {
        name: closed.byName,
      })
    : translateServerMessage(
        t,
        fillMessage(removed ? messages.removedFromRoom : messages.classEndedBy, { name: closed.byName }),
      );
  const endedTitle = meetingRoom ? t('meeting.classroom.meetingEndedTitle') : t('meeting.classroom.endedTitle');
  return (
    <div className={classes.centered}>
      <StatusPage
        icon={removed ? <IconUserMinus size={48} /> : <IconDoorExit size={48} />}
        color={removed ? 'red' : 'mooz'}
        title={removed ? t('meeting.classroom.removedTitle') : endedTitle}
        description={<span data-testid="room-closed-reason">{text}</span>}
        actions={
          <Button
            leftSection={<IconArrowLeft size={16} className={classes.flipInRtl} />}
            onClick={() => navigate(paths.meetings)}
          >
            {t('meeting.failed.back')}
          </Button>
        }
        testId={removed ? 'room-removed' : 'room-ended'}
      />
    </div>
  );
}
