// The player's keyboard shortcuts, as most video sites have them: space or k plays and pauses, j and l
// jump 10 s, the arrows 5 s, f fullscreen, m mute, < and > change the speed, ? shows the list.
// Never while the user types, and never keys a focused control needs for itself.

export type PlayerCommand =
  | { kind: 'toggle-play' }
  | { kind: 'seek'; by: number }
  | { kind: 'fullscreen' }
  | { kind: 'mute' }
  | { kind: 'speed'; step: 1 | -1 }
  | { kind: 'help' };

/** What has the focus: a field the user types in, a control with keys of its own, or anything else. */
type FocusKind = 'text' | 'control' | 'other';

interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

/** The list the help shows, in its order: the keys (as written on them) and the message key of what they do. */
export const shortcutList: { keys: string[]; labelKey: string }[] = [
  { keys: ['Space', 'K'], labelKey: 'recordings.keys.playPause' },
  { keys: ['J', 'L'], labelKey: 'recordings.keys.jump10' },
  { keys: ['←', '→'], labelKey: 'recordings.keys.jump5' },
  { keys: ['F'], labelKey: 'recordings.keys.fullscreen' },
  { keys: ['M'], labelKey: 'recordings.keys.mute' },
  { keys: ['<', '>'], labelKey: 'recordings.keys.speed' },
  { keys: ['?'], labelKey: 'recordings.keys.help' },
];

/**
 * The command a key press means, or null for keys the page (or the focused element) should keep.
 * Letters work wherever the focus is but in a text field; space and the arrows only when the focus is
 * on nothing that uses them (a button takes space, a speed choice takes the arrows).
 */
export function commandFor(press: KeyPress, focus: FocusKind): PlayerCommand | null {
  if (focus === 'text' || press.ctrlKey || press.metaKey || press.altKey) return null;
  const free = focus === 'other';
  switch (press.key) {
    case ' ':
    case 'Spacebar':
      return free ? { kind: 'toggle-play' } : null;
    case 'ArrowLeft':
      return free ? { kind: 'seek', by: -5 } : null;
    case 'ArrowRight':
      return free ? { kind: 'seek', by: 5 } : null;
    case '<':
      return { kind: 'speed', step: -1 };
    case '>':
      return { kind: 'speed', step: 1 };
    case '?':
      return { kind: 'help' };
  }
  switch (press.key.toLowerCase()) {
    case 'k':
      return { kind: 'toggle-play' };
    case 'j':
      return { kind: 'seek', by: -10 };
    case 'l':
      return { kind: 'seek', by: 10 };
    case 'f':
      return { kind: 'fullscreen' };
    case 'm':
      return { kind: 'mute' };
  }
  return null;
}

/** Where the focus is, for `commandFor`. The video itself is "other": the shortcuts are for it. */
export function focusKindOf(target: EventTarget | null): FocusKind {
  if (typeof Element === 'undefined' || !(target instanceof Element)) return 'other';
  if (target.tagName === 'VIDEO') return 'other';
  if (target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="textbox"], [role="combobox"]')) {
    return 'text';
  }
  if (
    target.closest(
      'button, a[href], summary, [role="button"], [role="radio"], [role="slider"], [role="menuitem"], [role="tab"], [role="option"], [role="checkbox"], [role="switch"]',
    )
  ) {
    return 'control';
  }
  return 'other';
}

export const playbackRates = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;

/** The next speed up or down the list from `rate` (a rate off the list goes to its neighbour), kept on the list. */
export function nextRate(rate: number, step: 1 | -1): number {
  if (step > 0) return playbackRates.find((r) => r > rate + 1e-9) ?? playbackRates[playbackRates.length - 1]!;
  return [...playbackRates].reverse().find((r) => r < rate - 1e-9) ?? playbackRates[0]!;
}
