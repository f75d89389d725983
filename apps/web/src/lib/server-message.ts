// The server sends the contract's English messages; show them in the user's language when we know them.
import type { TFunction } from 'i18next';
import { messageValues, messages, type MessageKey } from '@mooz/contract/messages';

const keyByText = new Map<string, MessageKey>(Object.entries(messages).map(([key, text]) => [text, key as MessageKey]));

// Messages with {{placeholders}} arrive filled in ("… Try again in 30 s."): each template becomes a
// pattern that finds its key and gives the values back for the translation.
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const templates = Object.entries(messages)
  .filter(([, text]) => text.includes('{{'))
  .map(([key, text]) => ({
    key: key as MessageKey,
    pattern: new RegExp(`^${text.split(/(\{\{\w+\}\})/).map((part) => (/^\{\{\w+\}\}$/.test(part) ? `(?<${part.slice(2, -2)}>.+?)` : escape(part))).join('')}$`),
  }));

export function translateServerMessage(t: TFunction, text: string): string {
  const key = keyByText.get(text);
  if (key) return t(`messages.${key}`, { ...messageValues, defaultValue: text });
  for (const template of templates) {
    const values = template.pattern.exec(text)?.groups;
    if (values) return t(`messages.${template.key}`, { ...messageValues, ...values, defaultValue: text });
  }
  return text;
}
