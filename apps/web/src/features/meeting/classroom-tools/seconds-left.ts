// A countdown to a time the server set (a timed poll, timed breakout rooms), ticking each second.
import { useEffect, useState } from 'react';

/** Whole seconds left until `endsAt`, never below 0; null when there is no end. */
export function useSecondsLeft(endsAt: string | null): number | null {
  const [now, setNow] = useState(Date.now());
  const ends = endsAt ? Date.parse(endsAt) : null;
  useEffect(() => {
    if (ends === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ends]);
  return ends === null ? null : Math.max(0, Math.ceil((ends - now) / 1000));
}

/** Seconds as m:ss (numbers keep their order in right-to-left text: wrap in dir="ltr"). */
export const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
