// A session can end without this window asking: the server refused its tokens (the account was
// deactivated, a password changed elsewhere) and the refresh failed, or another tab logged out. The
// signed-in frame then leaves for the login page at once rather than showing screens that cannot load.
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { isSignedIn, onAuthChange } from '../../lib/stored-auth';

/**
 * A component that draws nothing, not a hook of the frame: what calls useNavigate redraws at every
 * change of the router's state (its route context is new each time), so the frame places this beside
 * its content, and a navigation does not redraw the whole frame.
 */
export function LeaveWhenSignedOut(): null {
  const navigate = useNavigate();
  useEffect(
    () =>
      onAuthChange(() => {
        if (!isSignedIn()) void navigate(paths.login, { replace: true });
      }),
    [navigate],
  );
  return null;
}
