// The server sends the contract's English messages; show them in the user's language when we know them.
import type { TFunction } from 'i18next';
import { messageValues, messages, type MessageKey } from '@mooz/contract/messages';

const keyByText = new Map<string, MessageKey>(Object.entries(messages).map(([key, text]) => [text, key as MessageKey]));

export function translateServerMessage(t: TFunction, text: string): string {
  const key = keyByText.get(text);
  return key ? t(`messages.${key}`, { ...messageValues, defaultValue: text }) : text;
}
