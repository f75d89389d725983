import { describe, expect, it } from 'vitest';
import { loginBody } from '@mooz/contract/auth';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { validateLogin } from './login-validation';

// The same resolver every other form validates with.
const viaSchema = zod4Resolver(loginBody, { errorPriority: 'first' });

describe('login form validation', () => {
  it.each([
    { email: '', password: '' },
    { email: '   ', password: 'x' },
    { email: 'not-an-email', password: 'secret' },
    { email: 'a@b', password: 'secret' },
    { email: 'ada@example.com', password: '' },
    { email: ' Ada@Example.com ', password: 'secret' },
    { email: 'first.last+tag@sub.example.org', password: 'p' },
    { email: 'ada@example.com', password: 'x'.repeat(129) },
  ])('agrees with the contract schema for %o', (values) => {
    expect(validateLogin(values)).toEqual(viaSchema(values));
  });
});
