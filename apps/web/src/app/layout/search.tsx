// The navbar's search box: opens the search dialog (features/navigation/search-dialog), also with
// Ctrl/⌘+K or "/". It shows the layout state's query, which survives navigation. The dialog is not
// part of the first page: it loads once the page is idle, or sooner when the box or shortcut is used.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Group, Kbd, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { afterFirstScreen } from '../../lib/first-screen';
import { useLayoutState } from '../../lib/layout-state';
import classes from './layout.module.css';

const loadDialog = () => import('../../features/navigation/search-dialog');
const SearchDialog = lazy(async () => ({ default: (await loadDialog()).SearchDialog }));

/**
 * Until the dialog's field has focus (its code may still be loading, it may still be opening), what is
 * typed goes into the query, replacing the last one as the field would with its text selected. The
 * field takes over once it shows what was kept: a key reaching it before React had drawn the kept
 * query would have replaced it (CI, loaded: "esign" for "design" typed at once after Ctrl+K).
 */
export function keepTypedKeys() {
  let typed = false;
  useLayoutState.setState({ typedSinceOpen: false });
  const stop = () => {
    document.removeEventListener('keydown', keep, true);
    clearTimeout(timer);
  };
  const keep = (event: KeyboardEvent) => {
    const target = event.target as HTMLInputElement | null;
    if (target?.dataset?.searchField !== undefined && (!typed || target.value === useLayoutState.getState().query)) return stop();
    if (event.key === 'Escape') return stop();
    if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    const { query, setQuery } = useLayoutState.getState();
    setQuery(typed ? query + event.key : event.key);
    useLayoutState.setState({ typedSinceOpen: true });
    typed = true;
  };
  document.addEventListener('keydown', keep, true);
  // However the dialog fares, the page gets its keys back.
  const timer = setTimeout(stop, 5000);
}

/**
 * The search's shortcuts: Ctrl+K (⌘K on a Mac) and "/", except while typing in a field. "/" may take
 * Shift, as on layouts where it has no key of its own. A listener of our own: Mantine's useHotkeys
 * would bring its hotkey parser to every screen for two keys.
 */
export function isSearchShortcut(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return false;
  if (event.altKey) return false;
  if (event.key === '/') return !event.ctrlKey && !event.metaKey;
  return (event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === 'k';
}

/** The search dialog, opened by the shortcut and by `SearchButton`s; mounted from the first open on. */
export function useSearchDialog() {
  const [opened, { open, close }] = useDisclosure(false);
  const [used, setUsed] = useState(false);
  const show = () => {
    setUsed(true);
    open();
    keepTypedKeys();
  };
  const showRef = useRef(show);
  showRef.current = show;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSearchShortcut(event)) return;
      event.preventDefault();
      showRef.current();
    };
    document.documentElement.addEventListener('keydown', onKeyDown);
    return () => document.documentElement.removeEventListener('keydown', onKeyDown);
  }, []);
  // Fetched once the first screen is drawn, so what is typed right after Ctrl+K lands in the field.
  useEffect(() => {
    void afterFirstScreen(loadDialog);
  }, []);
  const dialog = used && (
    <Suspense fallback={null}>
      <SearchDialog opened={opened} onClose={close} />
    </Suspense>
  );
  return { show, dialog };
}

/**
 * Named by what it shows (the placeholder or the query, and its shortcut), so that speech input can
 * press it by the words on screen (WCAG 2.5.3); a query shown is preceded, for screen readers only, by
 * what the button does. Compact, it shows only the icon and is named "Search".
 */
export function SearchButton({ onOpen, compact = false }: { onOpen: () => void; compact?: boolean }) {
  const { t } = useTranslation();
  const query = useLayoutState((state) => state.query);
  return (
    <UnstyledButton
      className={classes.searchButton}
      data-compact={compact || undefined}
      onClick={onOpen}
      onPointerEnter={() => void loadDialog()}
      onFocus={() => void loadDialog()}
      aria-label={compact ? t('search.open') : undefined}
      aria-haspopup="dialog"
      aria-keyshortcuts="Control+K Meta+K /"
      data-testid="search"
    >
      <Group gap="xs" wrap="nowrap">
        <IconSearch size={18} stroke={1.6} aria-hidden="true" />
        {!compact && (
          <>
            <Text size="sm" c={query ? undefined : 'dimmed'} className={classes.searchPlaceholder} truncate>
              {query && <VisuallyHidden>{t('search.open')}: </VisuallyHidden>}
              {query || t('search.placeholder')}
            </Text>
            <Kbd size="xs" className={classes.searchPlaceholder}>
              Ctrl K
            </Kbd>
          </>
        )}
      </Group>
    </UnstyledButton>
  );
}
