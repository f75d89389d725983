// "Whiteboard" on a session that has begun: the pages of its class whiteboard as saved during the class,
// each shown as its picture and downloadable as PNG (components/whiteboard-pages.tsx).
import { useState } from 'react';
import { Button, Group, Loader, Modal } from '@mantine/core';
import { IconChalkboard } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRoutes } from '@mooz/contract/api-routes';
import type { Session } from '@mooz/contract/courses';
import { messages } from '@mooz/contract/messages';
import { ListEmpty, ListError } from '../../components/list-states';
import { WhiteboardPages } from '../../components/whiteboard-pages';
import { call, messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';

function BoardsModal({ session, onClose }: { session: Session; onClose: () => void }) {
  const { t } = useTranslation();
  const pages = useQuery({
    queryKey: ['sessions', session.room_id, 'whiteboard'],
    queryFn: ({ signal }) => call(apiRoutes.sessions.whiteboardPages, { params: { roomId: session.room_id }, signal }),
  });
  return (
    <Modal opened onClose={onClose} title={t('sessions.boards.title', { title: session.title })} closeButtonProps={{ 'aria-label': t('common.close') }} size="xl" centered data-testid="session-boards">
      {pages.isPending ? (
        <Group justify="center" p="lg">
          <Loader aria-label={t('common.loading')} />
        </Group>
      ) : pages.isError ? (
        <ListError title={t('sessions.boards.errorTitle')} message={translateServerMessage(t, messageOf(pages.error, messages.unexpected))} onRetry={() => void pages.refetch()} retrying={pages.isFetching} />
      ) : pages.data.data.length === 0 ? (
        <ListEmpty icon={<IconChalkboard size={36} />} title={t('sessions.boards.empty.title')} description={t('sessions.boards.empty.description')} />
      ) : (
        <WhiteboardPages roomId={session.room_id} pages={pages.data.data} />
      )}
    </Modal>
  );
}

/** Shown once a session can be joined (a board can only have been drawn on since). */
export function SessionBoardsButton({ session }: { session: Session }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  if (session.status === 'scheduled' && !session.can_join) return null;
  return (
    <>
      <Button variant="default" leftSection={<IconChalkboard size={16} />} onClick={() => setOpened(true)} data-testid="session-boards-open">
        {t('sessions.boards.open')}
      </Button>
      {opened && <BoardsModal session={session} onClose={() => setOpened(false)} />}
    </>
  );
}
