// The search dialog: a combobox (the query field) controlling a listbox of grouped entries, walked
// with the arrow keys (focus stays in the field; aria-activedescendant names the active entry),
// opened with Enter or a click, closed with Escape. Ctrl/⌘+B or the star stars a page or a course.
// Loaded on the first open, so the first page does not carry it.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Group, Kbd, Loader, Modal, Text, TextInput, Button } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLayoutState } from '../../lib/layout-state';
import { keepActive, stepActive, groupEntries, type ListKey, type SearchEntry } from './search-list';
import { SearchOption } from './search-option';
import { useToggleBookmark } from '../../lib/bookmark-changes';
import { useSearch } from './use-search';
import classes from './navigation.module.css';

const listKeys = new Set<string>(['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp']);

export function SearchDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const setQuery = useLayoutState((state) => state.setQuery);
  const bookmarks = useLayoutState((state) => state.bookmarks);
  const search = useSearch();
  const toggle = useToggleBookmark();
  const [active, setActive] = useState(-1);
  const [announcement, setAnnouncement] = useState('');
  const listId = useId();
  const optionId = (index: number) => `${listId}-option-${index}`;
  const list = useRef<HTMLDivElement>(null);
  const groups = groupEntries(search.entries);
  const flat = groups.flatMap((group) => group.entries.map(({ entry }) => entry));
  const count = flat.length;

  // A new list keeps the active place while it can; a new query starts again at the top.
  useEffect(() => setActive((current) => keepActive(current, count)), [count]);
  /** The entry that is active, so that results arriving above it (courses come first) do not move the choice to another. */
  const activeEntry = useRef<string | null>(null);
  useEffect(() => {
    activeEntry.current = null;
    setActive(count > 0 ? 0 : -1);
  }, [search.trimmed]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    const at = activeEntry.current === null ? -1 : flat.findIndex((entry) => entry.id === activeEntry.current);
    if (at >= 0) setActive(at);
  }, [search.entries]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    activeEntry.current = flat[active]?.id ?? null;
  }, [active]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const open = (entry: SearchEntry) => {
    onClose();
    void navigate(entry.link);
  };
  const starred = (id: string) => bookmarks.some((bookmark) => bookmark.id === id);
  const star = (entry: SearchEntry) => {
    if (!entry.bookmarkId || toggle.isPending) return;
    const id = entry.bookmarkId;
    const wasStarred = starred(id);
    toggle.mutate(id, {
      onSuccess: () => setAnnouncement(t(wasStarred ? 'bookmarks.removed' : 'bookmarks.added', { title: entry.title })),
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const current = flat[active];
    if (listKeys.has(event.key)) {
      event.preventDefault();
      setActive(stepActive(active, count, event.key as ListKey));
    } else if (event.key === 'Enter' && current) {
      event.preventDefault();
      open(current);
    } else if (event.key.toLowerCase() === 'b' && (event.ctrlKey || event.metaKey) && current?.bookmarkId) {
      event.preventDefault();
      star(current);
    }
  };

  const headingOf = (kind: string) => t(`search.group.${kind}`);
  let status = '';
  if (search.error) status = t('search.failed');
  else if (search.loading) status = t('search.searching');
  else if (search.trimmed && count === 0) status = t('search.noResults', { query: search.trimmed });
  else if (search.trimmed) status = t('search.resultCount', { count });

  return (
    <Modal.Root
      opened={opened}
      onClose={onClose}
      size="lg"
      yOffset="8vh"
      padding={0}
      radius="lg"
      data-testid="search-dialog"
    >
      <Modal.Overlay />
      <Modal.Content>
        <Modal.Body className={classes.searchBody}>
          {/* The dialog's name, for screen readers only: the field says the rest on screen. */}
          <Modal.Title className="mooz-visually-hidden">{t('search.title')}</Modal.Title>
          <TextInput
            data-autofocus
            size="lg"
            variant="unstyled"
            className={classes.searchField}
            leftSection={<IconSearch size={20} stroke={1.6} />}
            rightSection={search.loading ? <Loader size="xs" aria-hidden="true" /> : null}
            placeholder={t('search.placeholder')}
            value={search.query}
            onChange={(event) => {
              setQuery(event.currentTarget.value);
              useLayoutState.setState({ typedSinceOpen: true });
            }}
            onKeyDown={onKeyDown}
            role="combobox"
            aria-label={t('search.label')}
            aria-expanded={count > 0}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={active >= 0 && count > 0 ? optionId(active) : undefined}
            autoComplete="off"
            spellCheck={false}
            // The last query is kept; selected, it is replaced by whatever is typed first. Once something
            // is typed (here, or before the field was there) a later focus leaves it be: selecting it
            // then would let the next key replace it (CI once got "ython" for "python" typed at once).
            onFocus={(event) => !useLayoutState.getState().typedSinceOpen && event.currentTarget.select()}
            data-search-field
            data-testid="search-input"
          />
          <div
            ref={list}
            id={listId}
            role="listbox"
            aria-label={t('search.results')}
            className={classes.searchList}
            data-testid="search-results"
          >
            {groups.map((group) => (
              <div
                key={group.kind}
                role="group"
                aria-labelledby={`${listId}-${group.kind}`}
                data-testid={`search-group-${group.kind}`}
              >
                <div id={`${listId}-${group.kind}`} role="presentation" className={classes.groupHeading}>
                  {headingOf(group.kind)}
                </div>
                {group.entries.map(({ entry, index }) => (
                  <SearchOption
                    key={entry.id}
                    id={optionId(index)}
                    index={index}
                    entry={entry}
                    active={index === active}
                    starred={entry.bookmarkId ? starred(entry.bookmarkId) : false}
                    onActivate={() => setActive(index)}
                    onOpen={() => open(entry)}
                    onStar={() => star(entry)}
                  />
                ))}
              </div>
            ))}
          </div>
          <div className={classes.searchStatus}>
            <Text size="sm" c="dimmed" role="status" data-testid="search-status">
              {status}
            </Text>
            {search.trimmed && count === 0 && !search.loading && !search.error && (
              <Text size="sm" c="dimmed">
                {t('search.noResultsHint')}
              </Text>
            )}
            {search.error && (
              <Button size="compact-sm" variant="light" onClick={search.retry}>
                {t('common.retry')}
              </Button>
            )}
            <span className="mooz-visually-hidden" aria-live="polite">
              {announcement}
            </span>
          </div>
          <Group gap="md" className={classes.searchKeys} aria-hidden="true">
            <span>
              <Kbd size="xs">↑</Kbd> <Kbd size="xs">↓</Kbd> {t('search.keys.move')}
            </span>
            <span>
              <Kbd size="xs">Enter</Kbd> {t('search.keys.open')}
            </span>
            <span>
              <Kbd size="xs">Ctrl B</Kbd> {t('search.keys.bookmark')}
            </span>
            <span>
              <Kbd size="xs">Esc</Kbd> {t('search.keys.close')}
            </span>
          </Group>
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
