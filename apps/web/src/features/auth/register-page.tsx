// Sign-up: a student account, then the mailed code.
import { useState } from 'react';
import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { registerBody } from '@mooz/contract/auth';
import { messageValues, validationMessages } from '@mooz/contract/messages';
import { paths, safeNext, verifyPath, withNext } from '../../config/paths';
import { apiRoutes } from '@mooz/contract/api-routes';
import { languages } from '@mooz/contract/limits';
import { ApiError, call } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { serverFieldErrors, useTranslatedField } from '../../lib/validation';
import { AuthScreen } from './auth-screen';
import { FormFailure } from './form-failure';

interface RegisterValues {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  password: string;
  confirm: string;
}

const validateSchema = zod4Resolver(registerBody, { errorPriority: 'first' });

export function RegisterPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  // Where the user was going before signing up: verifying the email signs them in and takes them there.
  const next = safeNext(useSearchParams()[0].get('next'));
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<RegisterValues>({
    mode: 'uncontrolled',
    initialValues: { first_name: '', last_name: '', email: '', phone: '', password: '', confirm: '' },
    validate: (values) => {
      const errors = validateSchema({ ...values, phone: values.phone.trim() || undefined });
      if (values.confirm !== values.password) errors.confirm = validationMessages.passwordsDiffer;
      return errors;
    },
  });
  const field = useTranslatedField(form);

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    setSubmitting(true);
    try {
      const { message } = await call(apiRoutes.auth.register, {
        auth: false,
        body: {
          first_name: values.first_name.trim(),
          last_name: values.last_name.trim(),
          email: values.email.trim(),
          phone: values.phone.trim() || undefined,
          password: values.password,
          // The mail language: the interface's, when it is one the server writes in.
          language: languages.find((code) => code === i18n.resolvedLanguage),
        },
      });
      if (message) notify.success(t('auth.register.done'));
      await navigate(verifyPath(values.email.trim().toLowerCase(), false, next));
    } catch (error) {
      setFailure(translateServerMessage(t, (error as Error).message));
      if (error instanceof ApiError) form.setErrors(serverFieldErrors(error.errors));
    } finally {
      setSubmitting(false);
    }
  });

  return (
    <AuthScreen
      title={t('auth.register.title')}
      subtitle={t('auth.register.subtitle')}
      footer={
        <>
          {t('auth.haveAccount')}{' '}
          <Anchor component={Link} to={withNext(paths.login, next)} fw={600}>
            {t('auth.login.submit')}
          </Anchor>
        </>
      }
    >
      <form onSubmit={submit} noValidate data-testid="register-form">
        <Stack gap="md">
          {failure && <FormFailure>{failure}</FormFailure>}
          <Group grow align="flex-start">
            <TextInput
              key={form.key('first_name')}
              {...field('first_name')}
              label={t('auth.firstName')}
              autoComplete="given-name"
              data-autofocus
            />
            <TextInput
              key={form.key('last_name')}
              {...field('last_name')}
              label={t('auth.lastName')}
              autoComplete="family-name"
            />
          </Group>
          <TextInput
            key={form.key('email')}
            {...field('email')}
            label={t('auth.email')}
            placeholder={t('auth.email.placeholder')}
            type="email"
            autoComplete="email"
          />
          <TextInput
            key={form.key('phone')}
            {...field('phone')}
            label={t('auth.phone')}
            description={t('auth.optional')}
            type="tel"
            autoComplete="tel"
          />
          <PasswordInput
            key={form.key('password')}
            {...field('password')}
            label={t('auth.password')}
            description={t('auth.password.hint', messageValues)}
            autoComplete="new-password"
          />
          <PasswordInput
            key={form.key('confirm')}
            {...field('confirm')}
            label={t('auth.password.confirm')}
            autoComplete="new-password"
          />
          <Button type="submit" size="md" fullWidth loading={submitting} data-testid="register-submit">
            {t('auth.register.submit')}
          </Button>
        </Stack>
      </form>
    </AuthScreen>
  );
}
