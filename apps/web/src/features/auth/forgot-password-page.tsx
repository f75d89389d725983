// Forgot password: ask for a code by email, then send it back with a new password.
import '../../styles/mantine-more';
import { useState } from 'react';
import { Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { forgotPasswordBody, sendOtpBody } from '@mooz/contract/auth';
import { messages, messageValues, validationMessages } from '@mooz/contract/messages';
import { paths } from '../../config/paths';
import { apiRoutes } from '@mooz/contract/api-routes';
import { ApiError, call } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { serverFieldErrors, translateValidation, useTranslatedField } from '../../lib/validation';
import { AuthScreen } from './auth-screen';
import { CodeInput } from './code-input';
import { EmailInput } from './email-input';
import { FormFailure } from './form-failure';
import { useResendCountdown } from './use-resend-countdown';
import { ResendCode } from './resend-code';

interface ResetValues {
  email: string;
  otp: string;
  new_password: string;
  confirm: string;
}

const validateEmail = zod4Resolver(sendOtpBody.pick({ email: true }), { errorPriority: 'first' });
const validateReset = zod4Resolver(forgotPasswordBody, { errorPriority: 'first' });

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [step, setStep] = useState<'email' | 'reset'>('email');
  const [failure, setFailure] = useState<string | null>(null);
  // The code has no tries left: only a new one helps, so the resend goes with the message (as on the sign-up code's screen).
  const [burned, setBurned] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const countdown = useResendCountdown(false);
  const form = useForm<ResetValues>({
    mode: 'controlled',
    initialValues: { email: '', otp: '', new_password: '', confirm: '' },
    validate: (values) => {
      if (step === 'email') return validateEmail({ email: values.email });
      const errors = validateReset({ email: values.email, otp: values.otp, new_password: values.new_password });
      if (values.confirm !== values.new_password) errors.confirm = validationMessages.passwordsDiffer;
      return errors;
    },
  });
  const errorOf = (field: keyof ResetValues) => translateValidation(t, form.errors[field]);
  const field = useTranslatedField(form);

  async function run(action: () => Promise<void>) {
    setFailure(null);
    setSubmitting(true);
    try {
      await action();
      setBurned(false);
    } catch (error) {
      setBurned((error as Error).message === messages.codeBurned);
      setFailure(translateServerMessage(t, (error as Error).message));
      if (error instanceof ApiError) {
        form.setErrors(serverFieldErrors(error.errors));
        if (error.status === 429) countdown.restart();
      }
    } finally {
      setSubmitting(false);
    }
  }

  const requestCode = () =>
    run(async () => {
      await call(apiRoutes.auth.forgotPassword, { auth: false, body: { email: form.values.email.trim() } });
      notify.success(t('auth.forgot.sent'));
      countdown.restart();
      setStep('reset');
    });

  const submit = form.onSubmit((values) =>
    step === 'email'
      ? requestCode()
      : run(async () => {
          await call(apiRoutes.auth.forgotPassword, {
            auth: false,
            body: { email: values.email.trim(), otp: values.otp, new_password: values.new_password },
          });
          notify.success(t('auth.forgot.done'));
          await navigate(`${paths.login}?${new URLSearchParams({ email: values.email.trim() })}`, { replace: true });
        }),
  );

  return (
    <AuthScreen
      title={t('auth.forgot.title')}
      subtitle={step === 'email' ? t('auth.forgot.subtitle') : t('auth.forgot.codeSubtitle', { email: form.values.email })}
      footer={
        <Anchor component={Link} to={paths.login} fw={600}>
          {t('auth.backToLogin')}
        </Anchor>
      }
    >
      <form onSubmit={submit} noValidate data-testid="forgot-form">
        <Stack gap="md">
          {failure && (
            <FormFailure testId="forgot-failure">
              {failure}
              {burned && step === 'reset' && (
                <ResendCode secondsLeft={countdown.secondsLeft} onResend={() => void requestCode()} align="start" />
              )}
            </FormFailure>
          )}
          {step === 'email' ? (
            <EmailInput {...field('email')} />
          ) : (
            <>
              <Stack gap={4}>
                <Text size="sm" fw={500} id="reset-code-label">
                  {t('auth.verify.code')}
                </Text>
                <CodeInput
                  aria-labelledby="reset-code-label"
                  value={form.values.otp}
                  onChange={(value) => form.setFieldValue('otp', value)}
                  error={!!form.errors.otp}
                  data-testid="otp-input"
                />
                {form.errors.otp && (
                  <Text size="xs" c="red">
                    {errorOf('otp')}
                  </Text>
                )}
              </Stack>
              <PasswordInput
                {...field('new_password')}
                label={t('auth.password.new')}
                description={t('auth.password.hint', messageValues)}
                autoComplete="new-password"
              />
              <PasswordInput
                {...field('confirm')}
                label={t('auth.password.confirm')}
                autoComplete="new-password"
              />
            </>
          )}
          <Button type="submit" size="md" fullWidth loading={submitting} data-testid="forgot-submit">
            {step === 'email' ? t('auth.forgot.send') : t('auth.forgot.reset')}
          </Button>
          {step === 'reset' && !burned && <ResendCode secondsLeft={countdown.secondsLeft} onResend={() => void requestCode()} />}
        </Stack>
      </form>
    </AuthScreen>
  );
}
