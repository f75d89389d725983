// Chat over the data channel: JSON `{chat: {id, userLabel, text}}`, and how a received
// message is announced (text cut at limits.chatNotificationMaxChars characters with an ellipsis).
import { limits } from '@mooz/contract/limits';
import type { ChatWireMessage } from '@mooz/contract/realtime';

export function encodeChat(message: ChatWireMessage['chat']): string {
  return JSON.stringify({ chat: message } satisfies ChatWireMessage);
}

/** The chat in a data channel message, or null for anything else. */
export function decodeChat(text: string): ChatWireMessage['chat'] | null {
  try {
    const parsed = JSON.parse(text) as Partial<ChatWireMessage> | null;
    const chat = parsed?.chat;
    if (!chat || typeof chat.id !== 'string' || typeof chat.text !== 'string') return null;
    return { id: chat.id, userLabel: typeof chat.userLabel === 'string' && chat.userLabel.trim() ? chat.userLabel : '', text: chat.text.slice(0, limits.chatMaxLength) };
  } catch {
    return null;
  }
}

export function truncateForNotification(text: string, max: number = limits.chatNotificationMaxChars): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : text;
}
