// Forms validate with the contract's zod schemas (one rule for client and server), through
// mantine-form-zod-resolver's `zod4Resolver(schema, { errorPriority: 'first' })`, and show the
// contract's validation messages in the user's language.
import type { TFunction } from 'i18next';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { messageValues, validationMessages } from '@mooz/contract/messages';
import { translateServerMessage } from './server-message';

const keyByMessage = new Map<string, string>(Object.entries(validationMessages).map(([key, text]) => [text, key]));

/**
 * A field's error in the user's language: a validation message, or a message of the server's put on a
 * field (a wrong current password, a taken address); unknown ones pass through.
 */
export function translateValidation(t: TFunction, message: unknown): string | undefined {
  if (typeof message !== 'string' || !message) return undefined;
  const key = keyByMessage.get(message);
  return key ? t(`validation.${key}`, { ...messageValues, defaultValue: message }) : translateServerMessage(t, message);
}

/** Field errors of a failed call, to put back on the form's fields. */
export function serverFieldErrors(errors: Record<string, string[]> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(errors ?? {}).map(([field, list]) => [field, list[0] ?? '']));
}

/**
 * A form's field props with its error in the user's language: `<TextInput key={form.key('email')}
 * {...field('email')} />`. (The key stays apart: React refuses a spread key.)
 */
export function useTranslatedField<V>(form: UseFormReturnType<V, (values: V) => V>) {
  const { t } = useTranslation();
  return (name: keyof V & string) => ({ ...form.getInputProps(name), error: translateValidation(t, form.errors[name]) });
}
