// "Whiteboard" on a session that has begun: the pages of its class whiteboard as saved during the class
//, each shown as its picture and downloadable as PNG. The pictures are fetched with the
// bearer token (an <img> sends none) and shown from object URLs.
import { useEffect, useState } from 'react';
import { Button, Card, Group, Image, Loader, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconChalkboard, IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRoutes } from '@mooz/contract/api-routes';
import type { Session } from '@mooz/contract/courses';
import { messages } from '@mooz/contract/messages';
import { pathOf } from '@mooz/contract/endpoint';
import { ListEmpty, ListError } from '../../components/list-states';
import { call, getAccessToken, messageOf } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';

const baseUrl = (import.meta.env.VITE_API_URL as string | undefined) ?? '';

function PagePicture({ roomId, page, alt }: { roomId: string; page: number; alt: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let made: string | null = null;
    const controller = new AbortController();
    const token = getAccessToken();
    fetch(baseUrl + pathOf(apiRoutes.sessions.whiteboardImage, { roomId, page }), {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      signal: controller.signal,
    })
      .then((response) => (response.ok ? response.blob() : Promise.reject(new Error(String(response.status)))))
      .then((blob) => {
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch(() => !controller.signal.aborted && setFailed(true));
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [roomId, page]);
  if (failed) return <Text c="dimmed" size="sm">{alt}</Text>;
  if (!url) return <Loader size="sm" />;
  return <Image src={url} alt={alt} radius="sm" fit="contain" mah={260} bg="white" />;
}

function BoardsModal({ session, onClose }: { session: Session; onClose: () => void }) {
  const { t } = useTranslation();
  const pages = useQuery({
    queryKey: ['sessions', session.room_id, 'whiteboard'],
    queryFn: ({ signal }) => call(apiRoutes.sessions.whiteboardPages, { params: { roomId: session.room_id }, signal }),
  });
  const download = async (page: number) => {
    try {
      await downloadFile(apiRoutes.sessions.whiteboardImage, { roomId: session.room_id, page }, `whiteboard-${page + 1}.png`);
    } catch (error) {
      notify.error(translateServerMessage(t, messageOf(error, messages.unexpected)));
    }
  };
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
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {pages.data.data.map(({ page }) => {
            const name = t('sessions.boards.page', { page: page + 1 });
            return (
              <Card key={page} withBorder radius="md" p="sm" data-testid="session-board-page">
                <Stack gap="xs">
                  <PagePicture roomId={session.room_id} page={page} alt={name} />
                  <Group justify="space-between">
                    <Text fw={600} size="sm">
                      {name}
                    </Text>
                    <Button size="compact-sm" variant="default" leftSection={<IconDownload size={14} />} onClick={() => void download(page)} aria-label={t('sessions.boards.downloadNamed', { name })}>
                      {t('sessions.boards.download')}
                    </Button>
                  </Group>
                </Stack>
              </Card>
            );
          })}
        </SimpleGrid>
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
