// The first screen a visitor sees: what Mooz is, and the login form.
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Anchor, Button, Group, PasswordInput, Stack } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { validateLogin } from './login-validation';
import { messages } from '@mooz/contract/messages';
import { paths, safeNext, verifyPath, withNext } from '../../config/paths';
import { ApiError } from '../../lib/api';
import { useAuthStore } from '../../lib/auth-store';
import { translateServerMessage } from '../../lib/server-message';
import { serverFieldErrors, translateValidation } from '../../lib/validation';
import { AuthScreen } from './auth-screen';
import { EmailInput } from './email-input';
import { FormFailure } from './form-failure';

interface LoginValues {
  email: string;
  password: string;
}

type LoginErrors = Partial<Record<keyof LoginValues, string>>;

/**
 * The two fields as @mantine/form's uncontrolled form held them, without the library on the first
 * page: values kept out of React state, all checked at submit (validateLogin), a field's error cleared
 * as it is edited, the server's field errors put back on the fields.
 */
function useLoginForm(initialValues: LoginValues) {
  const values = useRef({ ...initialValues });
  const [errors, setErrors] = useState<LoginErrors>({});
  return {
    errors,
    setErrors,
    getValues: () => ({ ...values.current }),
    field: (name: keyof LoginValues) => ({
      defaultValue: initialValues[name],
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        values.current[name] = event.currentTarget.value;
        setErrors((shown) => (shown[name] === undefined ? shown : { ...shown, [name]: undefined }));
      },
    }),
    onSubmit: (handler: (values: LoginValues) => Promise<void>) => (event?: FormEvent<HTMLFormElement>) => {
      event?.preventDefault();
      const found = validateLogin(values.current);
      setErrors(found);
      if (Object.keys(found).length === 0) void handler({ ...values.current });
    },
  };
}

export function LoginForm({ onSubmit, initialEmail = '', next = null }: {
  onSubmit: (values: LoginValues) => Promise<void>;
  initialEmail?: string;
  /** Where the user was going: the code screen of an unverified account takes them there once verified. */
  next?: string | null;
}) {
  const { t } = useTranslation();
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<{ message: string; unverified: boolean } | null>(null);
  const form = useLoginForm({ email: initialEmail, password: '' });
  const field = (name: keyof LoginValues) => ({ ...form.field(name), error: translateValidation(t, form.errors[name]) });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    setSubmitting(true);
    try {
      await onSubmit({ email: values.email.trim(), password: values.password });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      setFailure({ message: translateServerMessage(t, message), unverified: message === messages.emailNotVerified });
      if (error instanceof ApiError) form.setErrors(serverFieldErrors(error.errors));
    } finally {
      setSubmitting(false);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-labelledby="login-title" data-testid="login-form">
      <Stack gap="md">
        {failure && (
          <FormFailure testId="login-error">
            {failure.message}
            {failure.unverified && (
              <>
                {' '}
                <Anchor component={Link} to={verifyPath(form.getValues().email.trim(), true, next)} fw={600} size="sm">
                  {t('auth.verify.link')}
                </Anchor>
              </>
            )}
          </FormFailure>
        )}
        <EmailInput {...field('email')} size="md" required withAsterisk={false} />
        <PasswordInput
          {...field('password')}
          label={t('auth.password')}
          placeholder="••••••••"
          autoComplete="current-password"
          size="md"
          leftSection={<IconLock size={18} stroke={1.6} />}
          required
          withAsterisk={false}
        />
        <Group justify="flex-end" mt={-6}>
          <Anchor component={Link} to={paths.forgotPassword} size="sm" fw={500}>
            {t('auth.forgotPassword')}
          </Anchor>
        </Group>
        <Button type="submit" size="md" fullWidth loading={submitting} data-testid="login-submit">
          {t('auth.login.submit')}
        </Button>
      </Stack>
    </form>
  );
}

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const login = useAuthStore((s) => s.login);

  return (
    <AuthScreen
      title={t('auth.login.title')}
      titleId="login-title"
      subtitle={t('auth.login.subtitle')}
      footer={
        <>
          {t('auth.noAccount')}{' '}
          <Anchor component={Link} to={withNext(paths.register, next)} fw={600}>
            {t('auth.createAccount')}
          </Anchor>
        </>
      }
    >
      <LoginForm
        initialEmail={params.get('email') ?? ''}
        next={next}
        onSubmit={async (values) => {
          await login(values);
          await navigate(next ?? paths.dashboard, { replace: true });
        }}
      />
    </AuthScreen>
  );
}
