// The whiteboard's small parts in the meeting: the stage mount, which loads the board only
// once a host shows one, and the controls bar's button (a host shows or hides the board for the class;
// anyone who put the shown board aside brings it back).
import { lazy, Suspense } from 'react';
import { ActionIcon, Loader } from '@mantine/core';
import { IconChalkboard, IconChalkboardOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Hint } from '../../../components/hint';
import { useRoomControls } from '../services/room-controls';
import { runsBoard, showWhiteboard, useWhiteboard } from './whiteboard-link';
import meetingClasses from '../meeting.module.css';
import classes from './whiteboard.module.css';

const WhiteboardBoard = lazy(() => import('./whiteboard-board'));

export function WhiteboardStage() {
  const { t } = useTranslation();
  const shown = useWhiteboard((state) => !!state.board?.shown && !state.setAside);
  if (!shown) return null;
  return (
    <Suspense
      fallback={
        <div className={classes.board} role="status">
          <div className={classes.loading}>
            <Loader aria-label={t('meeting.whiteboard.opening')} />
          </div>
        </div>
      }
    >
      <WhiteboardBoard />
    </Suspense>
  );
}

export function WhiteboardButton({ size }: { size: number }) {
  const { t } = useTranslation();
  const host = runsBoard(useRoomControls((state) => state.controls));
  const shown = useWhiteboard((state) => !!state.board?.shown);
  const setAside = useWhiteboard((state) => state.setAside);
  if (!host && !(shown && setAside)) return null;
  const label = host ? (shown ? t('meeting.whiteboard.hide') : t('meeting.whiteboard.show')) : t('meeting.whiteboard.bringBack');
  const onClick = () => {
    if (!host) return useWhiteboard.setState({ setAside: false });
    if (shown && setAside) return useWhiteboard.setState({ setAside: false });
    showWhiteboard(!shown);
  };
  return (
    <Hint label={label}>
      <ActionIcon size={size} radius="xl" variant="default" className={meetingClasses.control} onClick={onClick} aria-label={label} data-testid="toggle-whiteboard">
        {host && shown ? <IconChalkboardOff size={22} /> : <IconChalkboard size={22} />}
      </ActionIcon>
    </Hint>
  );
}
