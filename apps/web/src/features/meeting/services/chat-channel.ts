// Chat between peers over their links' data channels, never through the server: a message is
// kept only if every connected peer took it (a channel that is not open, or too far behind, refuses:
// see PeerLink.send), and a received one is announced with a sound and a toast unless the chats are in
// view. The wire format is in ../chat.ts; which links to send to is the mesh's to say.
import i18n from 'i18next';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import { randomId } from '../../../lib/random-id';
import { decodeChat, encodeChat, truncateForNotification } from '../chat';
import { chatsInView, openChats, useMeetingStore } from '../meeting-store';
import { meetingToast } from './meeting-toasts';

const store = useMeetingStore;
const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options ?? {});

/** What a chat needs of a peer link (PeerLink has it). */
export interface ChatLink {
  /** False when the message could not be queued. */
  send(text: string): boolean;
}

function playChatSound() {
  try {
    const audio = new Audio('/sounds/chat-received.mp3');
    audio.volume = limits.chatSoundVolume;
    // Autoplay rules may refuse a sound before the user has interacted; the toast still shows.
    void audio.play().catch(() => undefined);
  } catch {
    // No audio output available.
  }
}

/** A data channel message from a peer: a chat is added to the list and announced. */
export function receiveChat(peerId: string, text: string) {
  const chat = decodeChat(text);
  if (!chat) return;
  const peer = store.getState().peers[peerId];
  const userLabel = chat.userLabel || peer?.userName || t('meeting.anonymous');
  store.setState((state) => ({
    messages: [...state.messages, { id: chat.id, userLabel, text: chat.text, mine: false, at: Date.now() }],
  }));
  playChatSound();
  if (chatsInView(store.getState())) return;
  store.setState((state) => ({ unread: state.unread + 1 }));
  meetingToast.chat(
    t('meeting.toast.chatReceived', { label: userLabel, text: truncateForNotification(chat.text) }),
    t('meeting.toast.openChats'),
    openChats,
  );
}

/** Sends a chat to `links` (the connected peers); on failure it is taken back out of the list. */
export function sendChatTo(links: readonly ChatLink[], text: string): boolean {
  const body = text.trim();
  if (!body) return false;
  const { userName } = store.getState();
  const message = { id: randomId(), userLabel: userName, text: body };
  store.setState((state) => ({ messages: [...state.messages, { ...message, mine: true, at: Date.now() }] }));
  const wire = encodeChat(message);
  const delivered = links.length > 0 && links.map((link) => link.send(wire)).every(Boolean);
  if (!delivered) {
    meetingToast.error(messages.chatSendFailed);
    store.setState((state) => ({ messages: state.messages.filter((m) => m.id !== message.id) }));
  }
  return delivered;
}
