// The floating chat window: the chats over the stage without opening the side panel.
import { CloseButton, Group, Paper, Text } from '@mantine/core';
import { IconMessages } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useMeetingStore } from '../meeting-store';
import { ChatView } from './chat-view';
import classes from '../meeting.module.css';

export function FloatingChat() {
  const { t } = useTranslation();
  return (
    <Paper className={classes.floatingChat} shadow="xl" radius="lg" withBorder role="dialog" aria-label={t('meeting.chat.floatingTitle')} data-testid="floating-chat">
      <Group justify="space-between" px="sm" py={6} className={classes.floatingChatHeader}>
        <Group gap={6}>
          <IconMessages size={16} aria-hidden />
          <Text size="sm" fw={600}>
            {t('meeting.chat.floatingTitle')}
          </Text>
        </Group>
        <CloseButton size="sm" onClick={() => useMeetingStore.setState({ floatingChatOpen: false })} aria-label={t('meeting.panel.close')} />
      </Group>
      <ChatView testId="floating-chat-view" />
    </Paper>
  );
}
