// Changing one's email: the new address and the current password, then the code the new address got.
// The server tells the previous address; the profile shows the new one as soon as it answers.
import '../../styles/mantine-more';
import { useState } from 'react';
import { Anchor, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { IconAt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { changeEmailBody, confirmEmailChangeBody } from '@mooz/contract/auth';
import { apiRoutes } from '@mooz/contract/api-routes';
import { ApiError, call } from '../../lib/api';
import { useAuthStore } from '../../lib/auth-store';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { serverFieldErrors, translateValidation, useTranslatedField } from '../../lib/validation';
import { CodeInput } from './code-input';
import { FormFailure } from './form-failure';
import { ResendCode } from './resend-code';
import { useResendCountdown } from './use-resend-countdown';

interface Values {
  new_email: string;
  password: string;
  otp: string;
}

const validateRequest = zod4Resolver(changeEmailBody, { errorPriority: 'first' });
const validateConfirm = zod4Resolver(confirmEmailChangeBody, { errorPriority: 'first' });
const initialValues: Values = { new_email: '', password: '', otp: '' };

export function ChangeEmailDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const keepProfile = useAuthStore((s) => s.keepProfile);
  const [step, setStep] = useState<'request' | 'confirm'>('request');
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const countdown = useResendCountdown(false);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues,
    validate: (values) =>
      step === 'request'
        ? validateRequest({ new_email: values.new_email, password: values.password })
        : validateConfirm({ new_email: values.new_email, otp: values.otp }),
  });
  const field = useTranslatedField(form);
  const newEmail = form.values.new_email.trim();

  const close = () => {
    form.setValues(initialValues);
    form.clearErrors();
    setStep('request');
    setFailure(null);
    onClose();
  };

  async function run(action: () => Promise<void>) {
    setFailure(null);
    setSubmitting(true);
    try {
      await action();
    } catch (error) {
      const message = (error as Error).message;
      if (error instanceof ApiError) {
        form.setErrors(serverFieldErrors(error.errors));
        if (error.status === 429) countdown.restart();
      }
      // A failure a field shows is not said twice.
      if (!(error instanceof ApiError && error.errors && Object.keys(error.errors).length)) setFailure(translateServerMessage(t, message));
    } finally {
      setSubmitting(false);
    }
  }

  const requestCode = () =>
    run(async () => {
      await call(apiRoutes.auth.changeEmail, { body: { new_email: newEmail, password: form.values.password } });
      form.setFieldValue('otp', '');
      countdown.restart();
      setStep('confirm');
    });

  const submit = form.onSubmit(() =>
    step === 'request'
      ? requestCode()
      : run(async () => {
          const { data } = await call(apiRoutes.auth.confirmEmailChange, { body: { new_email: newEmail, otp: form.values.otp } });
          keepProfile(data);
          notify.success(t('profile.email.changed', { email: data.email }));
          close();
        }),
  );

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('profile.email.title')}
      centered
      radius="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="change-email-dialog"
    >
      <form onSubmit={submit} noValidate data-testid="change-email-form">
        <Stack gap="md">
          {failure && (
            <FormFailure testId="change-email-failure">{failure}</FormFailure>
          )}
          {step === 'request' ? (
            <>
              <Text size="sm" c="dimmed">
                {t('profile.email.intro')}
              </Text>
              <TextInput
                {...field('new_email')}
                label={t('profile.email.new')}
                type="email"
                autoComplete="email"
                leftSection={<IconAt size={18} stroke={1.6} />}
                data-autofocus
              />
              <PasswordInput {...field('password')} label={t('password.current')} autoComplete="current-password" />
            </>
          ) : (
            <>
              <Text size="sm" aria-live="polite" data-testid="change-email-sent" style={{ overflowWrap: 'anywhere' }}>
                {t('profile.email.sent', { email: newEmail })}
              </Text>
              <Stack gap={4}>
                <Text size="sm" fw={500} id="change-email-code-label">
                  {t('auth.verify.code')}
                </Text>
                <CodeInput
                  aria-labelledby="change-email-code-label"
                  value={form.values.otp}
                  onChange={(value) => form.setFieldValue('otp', value)}
                  error={!!form.errors.otp}
                  data-testid="change-email-otp"
                  autoFocus
                />
                {form.errors.otp && (
                  <Text size="xs" c="red" role="alert">
                    {translateValidation(t, form.errors.otp)}
                  </Text>
                )}
              </Stack>
              {/* Under the code's error: a burned or expired code is mended by a new one. */}
              <ResendCode secondsLeft={countdown.secondsLeft} onResend={() => void requestCode()} align="start" />
            </>
          )}
          <Group justify="flex-end" gap="sm" wrap="wrap">
            {step === 'confirm' ? (
              <Anchor component="button" type="button" size="sm" me="auto" onClick={() => setStep('request')}>
                {t('profile.email.back')}
              </Anchor>
            ) : (
              <Button variant="default" onClick={close} disabled={submitting}>
                {t('common.cancel')}
              </Button>
            )}
            <Button type="submit" loading={submitting} data-testid="change-email-submit">
              {step === 'request' ? t('profile.email.send') : t('profile.email.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
