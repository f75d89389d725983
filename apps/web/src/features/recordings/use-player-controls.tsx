// The player's controls beyond the browser's own: its speed, the keyboard shortcuts, and the flash
// over the video that shows what a key did.
import { useCallback, useEffect, useState, type RefObject } from 'react';
import { Text } from '@mantine/core';
import {
  IconPlayerPauseFilled,
  IconPlayerPlayFilled,
  IconRewindBackward10,
  IconRewindForward10,
  IconVolume,
  IconVolumeOff,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isolate } from '../../lib/bidi';
import { numberFormat } from '../../lib/intl';
import { commandFor, focusKindOf, nextRate, type PlayerCommand } from './shortcuts';

interface Flash {
  icon: React.ReactNode;
  text: string;
  at: number;
}

interface Controls {
  video: HTMLVideoElement | null;
  /** What goes full screen: the video with its flash. */
  frame: RefObject<HTMLDivElement | null>;
  /** The recording's length, for a video that does not know its own. */
  durationSeconds: number;
  /** Keys left alone (a dialog over the player has them). */
  keysOff: boolean;
  setRate(rate: number): void;
}

/** The shortcuts at work while the player is shown, the speed kept in step with the video, and the help's state. */
export function usePlayerControls({ video, frame, durationSeconds, keysOff, setRate }: Controls) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const [helpOpened, setHelpOpened] = useState(false);
  const [flash, setFlash] = useState<Flash | null>(null);

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
    [video, setRate],
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
          const end = Number.isFinite(video.duration) ? video.duration : durationSeconds;
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
    [video, durationSeconds, show, t, changeRate, locale, frame],
  );

  useEffect(() => {
    if (keysOff) return;
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
  }, [run, keysOff, helpOpened]);

  // The browser's own speed menu changes it too.
  useEffect(() => {
    if (!video) return;
    const onRate = () => setRate(video.playbackRate);
    video.addEventListener('ratechange', onRate);
    return () => video.removeEventListener('ratechange', onRate);
  }, [video, setRate]);

  return { flash, helpOpened, setHelpOpened, changeRate };
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
