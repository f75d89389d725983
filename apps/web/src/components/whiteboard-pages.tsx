// The saved pages of one class whiteboard (a session's boards, on the sessions list and on its course's
// page): each page as its picture, which opens the full PNG in a new tab, and a download of it. The
// pictures are fetched with the bearer token (an <img> sends none) and shown from object URLs.
import { useEffect, useState } from 'react';
import { Anchor, Button, Card, Group, Image, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { apiRoutes } from '@mooz/contract/api-routes';
import { pathOf } from '@mooz/contract/endpoint';
import { messages } from '@mooz/contract/messages';
import type { SavedWhiteboardPage } from '@mooz/contract/whiteboard';
import { getAccessToken, messageOf } from '../lib/api';
import { downloadFile } from '../lib/download';
import { translateServerMessage } from '../lib/server-message';
import { notify } from '../lib/toasts';

const baseUrl = (import.meta.env.VITE_API_URL as string | undefined) ?? '';

function PagePicture({ roomId, page, alt, height }: { roomId: string; page: number; alt: string; height: number }) {
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
  return (
    <Anchor href={url} target="_blank" rel="noopener" display="block" data-testid="board-page-full">
      <Image src={url} alt={alt} radius="sm" fit="contain" mah={height} bg="white" />
    </Anchor>
  );
}

/**
 * A board's pages as cards: one column on a phone, two from `sm`, three from `md` when `compact` (the
 * course page lists several boards; a session's dialog shows one, larger). `pageName` names a page to
 * assistive technology (its picture, its download) where "Page 2" alone would not say which board.
 */
export function WhiteboardPages({ roomId, pages, compact = false, pageName }: {
  roomId: string;
  pages: SavedWhiteboardPage[];
  compact?: boolean;
  pageName?: (page: number) => string;
}) {
  const { t } = useTranslation();
  const download = async (page: number) => {
    try {
      await downloadFile(apiRoutes.sessions.whiteboardImage, { roomId, page }, `whiteboard-${page + 1}.png`);
    } catch (error) {
      notify.error(translateServerMessage(t, messageOf(error, messages.unexpected)));
    }
  };
  return (
    <SimpleGrid cols={compact ? { base: 1, sm: 2, md: 3 } : { base: 1, sm: 2 }}>
      {pages.map(({ page }) => {
        const shown = t('sessions.boards.page', { page: page + 1 });
        const name = pageName?.(page) ?? shown;
        return (
          <Card key={page} withBorder radius="md" p="sm" data-testid="session-board-page">
            <Stack gap="xs">
              <PagePicture roomId={roomId} page={page} alt={name} height={compact ? 180 : 260} />
              <Group justify="space-between" wrap="nowrap">
                <Text fw={600} size="sm">
                  {shown}
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
  );
}
