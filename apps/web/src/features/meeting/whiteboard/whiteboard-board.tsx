// The board itself, loaded only when the host shows one: Excalidraw for the drawing (pen,
// shapes, text, eraser), a bar with the page the class is on, the host's page and access controls, and
// a formula helper that writes maths as text. Who may draw is shown here and enforced by the server.
import '@excalidraw/excalidraw/index.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ActionIcon, Badge, Button, Group, Loader, MultiSelect, Popover, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconEyeOff, IconMathFunction, IconPlus } from '@tabler/icons-react';
import { Excalidraw, CaptureUpdateAction, convertToExcalidrawElements } from '@excalidraw/excalidraw';
import type { ExcalidrawImperativeAPI } from '@excalidraw/excalidraw/types';
import { useTranslation } from 'react-i18next';
import { whiteboardLimits, type WhiteboardAccess } from '@mooz/contract/whiteboard';
import { Hint } from '../../../components/hint';
import { useMeetingStore } from '../meeting-store';
import { useRoomControls } from '../services/room-controls';
import { bindPage } from './board-sync';
import { keepPageSaved } from './board-images';
import { formulaText } from './formula';
import { useKeepDocumentLanguage } from './keep-document-language';
import {
  addWhiteboardPage,
  goToWhiteboardPage,
  mayDraw,
  runsBoard,
  setWhiteboardAccess,
  useWhiteboard,
  useWhiteboardEpoch,
} from './whiteboard-link';
import classes from './whiteboard.module.css';

/** Excalidraw's own language codes for ours. */
const editorLanguage: Record<string, string> = { en: 'en', fr: 'fr-FR', de: 'de-DE', pt: 'pt-PT' };

function FormulaButton({ api }: { api: ExcalidrawImperativeAPI | null }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [value, setValue] = useState('');
  const preview = formulaText(value);
  const insert = () => {
    if (!api || !preview) return;
    const { scrollX, scrollY, width, height, zoom } = api.getAppState();
    // In the middle of what this person sees.
    const x = width / 2 / zoom.value - scrollX - 80;
    const y = height / 2 / zoom.value - scrollY - 20;
    const [element] = convertToExcalidrawElements([{ type: 'text', x, y, text: preview, fontSize: 28 }]);
    api.updateScene({ elements: [...api.getSceneElementsIncludingDeleted(), element!], captureUpdate: CaptureUpdateAction.IMMEDIATELY });
    setValue('');
    setOpened(false);
  };
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" trapFocus withArrow>
      <Popover.Target>
        <Button size="compact-sm" variant="default" leftSection={<IconMathFunction size={16} />} onClick={() => setOpened((o) => !o)} data-testid="whiteboard-formula">
          {t('meeting.whiteboard.formula')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack
          gap="xs"
          component="form"
          onSubmit={(event) => {
            event.preventDefault();
            insert();
          }}
        >
          <TextInput
            label={t('meeting.whiteboard.formulaLabel')}
            description={t('meeting.whiteboard.formulaHint')}
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            maxLength={200}
            data-testid="whiteboard-formula-input"
            data-autofocus
          />
          <Text size="sm" dir="ltr" aria-live="polite" data-testid="whiteboard-formula-preview">
            {preview || '\u00a0'}
          </Text>
          <Button type="submit" size="compact-sm" disabled={!preview}>
            {t('meeting.whiteboard.formulaInsert')}
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

function AccessControl() {
  const { t } = useTranslation();
  const board = useWhiteboard((state) => state.board)!;
  const peers = useMeetingStore((state) => state.peers);
  const hosts = useRoomControls((state) => state.controls?.hosts ?? []);
  const students = Object.values(peers).filter((peer) => !hosts.includes(peer.peerId));
  const options = students.map((peer) => ({ value: peer.peerId, label: peer.userName }));
  return (
    <Group gap="xs" wrap="wrap">
      <SegmentedControl
        size="xs"
        value={board.access}
        onChange={(value) => setWhiteboardAccess(value as WhiteboardAccess, value === 'named' ? board.writers : [])}
        aria-label={t('meeting.whiteboard.whoDraws')}
        data-testid="whiteboard-access"
        data={[
          { value: 'nobody', label: t('meeting.whiteboard.access.nobody') },
          { value: 'everyone', label: t('meeting.whiteboard.access.everyone') },
          { value: 'named', label: t('meeting.whiteboard.access.named') },
        ]}
      />
      {board.access === 'named' && (
        <MultiSelect
          size="xs"
          w={220}
          aria-label={t('meeting.whiteboard.namedStudents')}
          placeholder={board.writers.length ? undefined : t('meeting.whiteboard.chooseStudents')}
          data={options}
          value={board.writers.filter((id) => options.some((o) => o.value === id))}
          onChange={(writers) => setWhiteboardAccess('named', writers)}
          nothingFoundMessage={t('meeting.whiteboard.noStudents')}
          comboboxProps={{ withinPortal: true }}
          data-testid="whiteboard-writers"
        />
      )}
    </Group>
  );
}

export default function WhiteboardBoard() {
  useKeepDocumentLanguage();
  const { t, i18n } = useTranslation();
  const board = useWhiteboard((state) => state.board)!;
  const epoch = useWhiteboardEpoch((state) => state.epoch);
  const roomId = useMeetingStore((state) => state.roomId) ?? '';
  const host = runsBoard(useRoomControls((state) => state.controls));
  const peerId = useMeetingStore((state) => state.peerId);
  const canDraw = useMemo(() => mayDraw(board), [board, host, peerId]); // eslint-disable-line react-hooks/exhaustive-deps
  const canDrawRef = useRef(canDraw);
  canDrawRef.current = canDraw;
  const [api, setApi] = useState<ExcalidrawImperativeAPI | null>(null);
  const [loaded, setLoaded] = useState(false);
  const page = board.page;

  useEffect(() => {
    if (!api || !roomId) return;
    const binding = bindPage(api, roomId, page, () => canDrawRef.current, setLoaded);
    return () => binding.stop();
  }, [api, roomId, page, epoch]);

  // A class session's host keeps each page saved on the session as PNG (board-images.ts).
  const classSession = useRoomControls((state) => state.controls?.classSession ?? false);
  useEffect(() => {
    if (!api || !roomId || !host || !classSession) return;
    return keepPageSaved(api, roomId, page);
  }, [api, roomId, page, host, classSession]);

  // What the page shows, as attributes (no re-render): how many drawn elements, for tests and tools.
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!api) return;
    return api.onChange((elements) => {
      const shown = elements.filter((element) => !element.isDeleted).length;
      if (section.current && section.current.dataset.elements !== `${shown}`) section.current.dataset.elements = `${shown}`;
    });
  }, [api]);

  const pageLabel = t('meeting.whiteboard.page', { page: page + 1, pages: board.pages });
  return (
    <section ref={section} data-elements="0" className={classes.board} aria-label={t('meeting.whiteboard.title')} data-testid="whiteboard" data-page={page} data-can-draw={canDraw}>
      <div className={classes.bar}>
        <Group gap="xs" wrap="nowrap">
          {host ? (
            <>
              <Hint label={t('meeting.whiteboard.previousPage')}>
                <ActionIcon variant="default" onClick={() => goToWhiteboardPage(page - 1)} disabled={page === 0} aria-label={t('meeting.whiteboard.previousPage')} data-testid="whiteboard-previous">
                  <IconChevronLeft size={16} className={classes.flipInRtl} />
                </ActionIcon>
              </Hint>
              <Text size="sm" fw={600} dir="auto" aria-live="polite" data-testid="whiteboard-page">
                {pageLabel}
              </Text>
              <Hint label={t('meeting.whiteboard.nextPage')}>
                <ActionIcon variant="default" onClick={() => goToWhiteboardPage(page + 1)} disabled={page >= board.pages - 1} aria-label={t('meeting.whiteboard.nextPage')} data-testid="whiteboard-next">
                  <IconChevronRight size={16} className={classes.flipInRtl} />
                </ActionIcon>
              </Hint>
              <Hint label={t('meeting.whiteboard.addPage')}>
                <ActionIcon variant="default" onClick={addWhiteboardPage} disabled={board.pages >= whiteboardLimits.maxPages} aria-label={t('meeting.whiteboard.addPage')} data-testid="whiteboard-add-page">
                  <IconPlus size={16} />
                </ActionIcon>
              </Hint>
            </>
          ) : (
            <Text size="sm" fw={600} aria-live="polite" data-testid="whiteboard-page">
              {pageLabel}
            </Text>
          )}
          {!loaded && <Loader size="xs" aria-label={t('common.loading')} />}
        </Group>
        <Group gap="xs" wrap="wrap" justify="flex-end">
          {host && <AccessControl />}
          {!host && (
            <Badge variant="light" color={canDraw ? 'teal' : 'gray'} data-testid="whiteboard-permission">
              {canDraw ? t('meeting.whiteboard.youMayDraw') : t('meeting.whiteboard.viewOnly')}
            </Badge>
          )}
          {canDraw && <FormulaButton api={api} />}
          {!host && (
            <Button size="compact-sm" variant="default" leftSection={<IconEyeOff size={16} />} onClick={() => useWhiteboard.setState({ setAside: true })} data-testid="whiteboard-set-aside">
              {t('meeting.whiteboard.setAside')}
            </Button>
          )}
        </Group>
      </div>
      <div className={classes.canvas} dir="ltr">
        <Excalidraw
          excalidrawAPI={setApi}
          viewModeEnabled={!canDraw}
          langCode={editorLanguage[i18n.resolvedLanguage ?? 'en'] ?? 'en'}
          theme="light"
          UIOptions={{ canvasActions: { loadScene: false, saveToActiveFile: false, export: false, toggleTheme: false, changeViewBackgroundColor: false } }}
        />
      </div>
    </section>
  );
}
