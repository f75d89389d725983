// The chat: messages (own on the inline-end side) and a box to write one. Used in the side panel and
// the floating window.
import { useEffect, useRef, useState } from 'react';
import { ActionIcon, Anchor, NativeSelect, ScrollArea, Stack, Text, Textarea } from '@mantine/core';
import { Hint } from '../../../components/hint';
import { IconMessageCircle, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { limits } from '@mooz/contract/limits';
import { useMeetingStore } from '../meeting-store';
import { sendChat } from '../services/meeting';
import { useRoomControls } from '../services/room-controls';
import { mayWritePrivately, sendPrivate } from '../classroom-tools/tools-link';
import toolClasses from '../classroom-tools/classroom-tools.module.css';
import classes from '../meeting.module.css';
import { dateTimeFormat } from '../../../lib/intl';

export function ChatView({ testId }: { testId: string }) {
  const { t, i18n } = useTranslation();
  const chatMessages = useMeetingStore((state) => state.messages);
  const connected = useMeetingStore((state) => Object.values(state.peers).some((peer) => peer.status === 'connected'));
  const [draft, setDraft] = useState('');
  const peers = useMeetingStore((state) => state.peers);
  const controls = useRoomControls((state) => state.controls);
  // Whom one may write to privately: anyone, or only the hosts when a host locked it (hosts: anyone).
  const writable = Object.values(peers).filter((peer) => mayWritePrivately(controls, peer.peerId));
  const chosen = useMeetingStore((state) => state.chatTo);
  const chatTo = chosen && writable.some((peer) => peer.peerId === chosen) ? chosen : null;
  const canSend = connected || chatTo !== null;
  const viewport = useRef<HTMLDivElement>(null);
  const time = dateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit' });

  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [chatMessages.length]);

  const submit = () => {
    if (!draft.trim() || !canSend) return;
    if (chatTo ? sendPrivate(chatTo, draft) : sendChat(draft)) setDraft('');
  };

  return (
    <div className={classes.chat} data-testid={testId}>
      <ScrollArea className={classes.chatMessages} viewportRef={viewport} type="auto">
        {chatMessages.length === 0 ? (
          <Stack align="center" gap={6} py="xl" px="md" c="dimmed" ta="center">
            <IconMessageCircle size={32} aria-hidden />
            <Text size="sm">{t('meeting.chat.empty')}</Text>
          </Stack>
        ) : (
          <Stack gap="xs" p="sm" component="ol" className={classes.chatList} aria-live="polite">
            {chatMessages.map((message) => (
              <li key={message.id} className={classes.chatMessage} data-mine={message.mine || undefined} data-private={message.privateWith ? true : undefined} data-testid="chat-message">
                <Text size="xs" c="dimmed" className={classes.chatMeta}>
                  {message.mine ? t('meeting.you') : message.userLabel} · {time.format(message.at)}
                  {message.privateWith && (
                    <>
                      {' · '}
                      <Anchor
                        component="button"
                        type="button"
                        size="xs"
                        className={toolClasses.privateTag}
                        onClick={() => useMeetingStore.setState({ chatTo: message.privateWith!.peerId })}
                        data-testid="chat-private-tag"
                      >
                        {message.mine ? t('meeting.private.to', { name: message.privateWith.name }) : t('meeting.private.from')}
                      </Anchor>
                    </>
                  )}
                </Text>
                {/* Each message in its own writing's direction: English in a right-to-left layout keeps its "?" at the end. */}
                <Text size="sm" className={`${classes.chatBubble} ${message.privateWith ? toolClasses.privateBubble : ''}`} dir="auto">
                  {message.text}
                </Text>
              </li>
            ))}
          </Stack>
        )}
      </ScrollArea>
      {writable.length > 0 && (
        <NativeSelect
          size="xs"
          px="sm"
          pt={6}
          label={t('meeting.private.toLabel')}
          value={chatTo ?? ''}
          onChange={(event) => useMeetingStore.setState({ chatTo: event.currentTarget.value || null })}
          data={[{ value: '', label: t('meeting.private.everyone') }, ...writable.map((peer) => ({ value: peer.peerId, label: t('meeting.private.privatelyTo', { name: peer.userName }) }))]}
          data-testid="chat-to"
        />
      )}
      <form
        className={classes.chatForm}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Textarea
          aria-label={t('meeting.chat.placeholder')}
          placeholder={chatTo ? t('meeting.private.placeholder', { name: peers[chatTo]?.userName ?? '' }) : connected ? t('meeting.chat.placeholder') : t('meeting.chat.nobody')}
          autosize
          minRows={1}
          maxRows={4}
          maxLength={limits.chatMaxLength}
          value={draft}
          disabled={!canSend}
          onChange={(event) => setDraft(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              submit();
            }
          }}
          style={{ flex: 1 }}
          data-testid="chat-input"
        />
        <Hint label={t('meeting.chat.send')}>
          <ActionIcon type="submit" size="lg" radius="md" disabled={!canSend || !draft.trim()} aria-label={t('meeting.chat.send')} data-testid="chat-send">
            <IconSend size={18} className={classes.flipInRtl} />
          </ActionIcon>
        </Hint>
      </form>
    </div>
  );
}
