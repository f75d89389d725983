// A code can be mailed again once a minute (the server's rule): count down to the next chance.
import { useEffect, useState } from 'react';
import { limits } from '@mooz/contract/limits';

export function useResendCountdown(startNow: boolean) {
  const [availableAt, setAvailableAt] = useState(() => (startNow ? Date.now() + limits.otpResendIntervalSeconds * 1000 : 0));
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (availableAt <= now) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [availableAt, now]);
  return {
    secondsLeft: Math.max(0, Math.ceil((availableAt - now) / 1000)),
    /** Starts a new wait, of the server's Retry-After when it sent one. */
    restart(seconds: number = limits.otpResendIntervalSeconds) {
      setNow(Date.now());
      setAvailableAt(Date.now() + seconds * 1000);
    },
  };
}
