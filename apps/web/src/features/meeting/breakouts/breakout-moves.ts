// The room page follows the split: into this person's group when placed, back to the main room when
// the split is over (or they are in no group), and back to the main room when a group will not have
// them any more (its time was up before the server said so).
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { parseGroupRoomId } from '@mooz/contract/breakouts';
import { paths } from '../../../config/paths';
import { useMeetingStore } from '../meeting-store';
import { amHost, useRoomControls } from '../services/room-controls';
import { meetingToast } from '../services/meeting-toasts';
import { useBreakouts, whereToBe } from './breakouts-link';

export function useBreakoutMoves(roomId: string, userId: number | null) {
  const navigate = useNavigate();
  const phase = useMeetingStore((state) => state.phase);
  const failure = useMeetingStore((state) => state.failure);
  const known = useBreakouts((state) => state.known);
  const split = useBreakouts((state) => state.split);
  const timeUp = useBreakouts((state) => state.timeUp);
  const host = amHost(useRoomControls((state) => state.controls));
  const target = phase === 'joined' && known ? whereToBe(split, timeUp, roomId, userId, host) : null;

  useEffect(() => {
    if (target) navigate(paths.meeting(target));
  }, [target, navigate]);

  useEffect(() => {
    const group = parseGroupRoomId(roomId);
    if (phase !== 'failed' || !group) return;
    if (failure) meetingToast.error(failure);
    navigate(paths.meeting(group.mainRoomId), { replace: true });
  }, [phase, failure, roomId, navigate]);
}
