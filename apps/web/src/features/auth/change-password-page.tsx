// Change password: the current one, then the new one twice. Other sessions are signed out by the server.
import '../../styles/mantine-more';
import { useState } from 'react';
import { Button, Card, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { changePasswordBody } from '@mooz/contract/auth';
import { messageValues, validationMessages } from '@mooz/contract/messages';
import { paths } from '../../config/paths';
import { apiRoutes } from '@mooz/contract/api-routes';
import { ApiError, call } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { serverFieldErrors, useTranslatedField } from '../../lib/validation';

interface PasswordValues {
  old_password: string;
  new_password: string;
  confirm: string;
}

const validateSchema = zod4Resolver(changePasswordBody, { errorPriority: 'first' });

export function ChangePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const form = useForm<PasswordValues>({
    mode: 'uncontrolled',
    initialValues: { old_password: '', new_password: '', confirm: '' },
    validate: (values) => {
      const errors = validateSchema({ ...values });
      if (values.confirm !== values.new_password) errors.confirm = validationMessages.passwordsDiffer;
      return errors;
    },
  });
  const field = useTranslatedField(form);

  const submit = form.onSubmit(async ({ old_password, new_password }) => {
    setSaving(true);
    try {
      await call(apiRoutes.auth.changePassword, { body: { old_password, new_password } });
      notify.success(t('password.changed'));
      await navigate(paths.profile);
    } catch (error) {
      if (error instanceof ApiError && error.errors) form.setErrors(serverFieldErrors(error.errors));
      else notify.error(translateServerMessage(t, (error as Error).message));
    } finally {
      setSaving(false);
    }
  });

  return (
    <Stack gap="lg" maw={560}>
      <div>
        <Title order={1} size="h2">
          {t('password.title')}
        </Title>
        <Text c="dimmed">{t('password.subtitle')}</Text>
      </div>
      <Card withBorder radius="lg" padding="xl">
        <form onSubmit={submit} noValidate data-testid="change-password-form">
          <Stack gap="md">
            <PasswordInput key={form.key('old_password')} {...field('old_password')} label={t('password.current')} autoComplete="current-password" data-autofocus />
            <PasswordInput key={form.key('new_password')} {...field('new_password')} label={t('auth.password.new')} description={t('auth.password.hint', messageValues)} autoComplete="new-password" />
            <PasswordInput key={form.key('confirm')} {...field('confirm')} label={t('auth.password.confirm')} autoComplete="new-password" />
            <Group justify="flex-end">
              <Button type="submit" loading={saving}>
                {t('password.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
