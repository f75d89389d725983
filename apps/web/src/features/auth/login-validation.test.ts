import { describe, expect, it } from 'vitest';
import { loginBody } from '@mooz/contract/auth';
import { schemaValidator } from '../../lib/validation';
import { validateLogin } from './login-validation';

const viaSchema = schemaValidator(loginBody);

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
