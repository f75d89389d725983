// Forms validate with the contract's zod schemas (one rule for client and server) and show the
// contract's validation messages in the user's language.
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { validationMessages } from '@mooz/contract/messages';

const keyByMessage = new Map<string, string>(Object.entries(validationMessages).map(([key, text]) => [text, key]));

/** A @mantine/form `validate` function from a zod schema: {field: message}. */
export function schemaValidator<T>(schema: z.ZodType<T>) {
  return (values: unknown): Record<string, string> => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) errors[issue.path.join('.')] ??= issue.message;
    return errors;
  };
}

/** A validation message (ours or the server's) in the user's language; unknown ones pass through. */
export function translateValidation(t: TFunction, message: unknown): string | undefined {
  if (typeof message !== 'string' || !message) return undefined;
  const key = keyByMessage.get(message);
  return key ? t(`validation.${key}`, { defaultValue: message }) : message;
}

/** Field errors of a failed call, to put back on the form's fields. */
export function serverFieldErrors(errors: Record<string, string[]> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(errors ?? {}).map(([field, list]) => [field, list[0] ?? '']));
}
