// The login form's checks, written without zod so the first page a visitor loads stays small;
// login-validation.test.ts pins that they agree with the contract's loginBody schema.
import { limits } from '@mooz/contract/limits';
import { validationMessages } from '@mooz/contract/messages';

// The same shape zod's email check accepts for ordinary addresses.
const emailPattern = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export function validateLogin(values: { email: string; password: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  const email = values.email.trim();
  if (!email) errors.email = validationMessages.required;
  else if (email.length > limits.emailMaxLength || !emailPattern.test(email)) errors.email = validationMessages.email;
  if (!values.password) errors.password = validationMessages.required;
  else if (values.password.length > limits.passwordMaxLength) errors.password = validationMessages.passwordTooLong;
  return errors;
}
