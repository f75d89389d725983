// The one-time code that proves the email address, with a resend that counts down. The right code signs
// the user in (the server's answer is login's) and takes them where they were going (`next`). A code
// burned by wrong tries says so, every time, with the resend right there.
import '../../styles/mantine-more';
import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, Center, Stack } from '@mantine/core';
import { useMedia } from '../../lib/use-media';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { limits, otpPattern } from '@mooz/contract/limits';
import { messages, messageValues } from '@mooz/contract/messages';
import { paths, safeNext } from '../../config/paths';
import { apiRoutes } from '@mooz/contract/api-routes';
import { ApiError, call } from '../../lib/api';
import { useAuthStore } from '../../lib/auth-store';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { AuthScreen } from './auth-screen';
import { CodeInput } from './code-input';
import { FormFailure } from './form-failure';
import { useResendCountdown } from './use-resend-countdown';
import { ResendCode } from './resend-code';

function retryAfterOf(error: unknown): number | undefined {
  return error instanceof ApiError && error.status === 429 ? limits.otpResendIntervalSeconds : undefined;
}

export function VerifyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const wantsResend = params.get('resend') === '1';
  const next = safeNext(params.get('next'));
  const signedIn = useAuthStore((state) => state.signedIn);
  const [code, setCode] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  // The code has no tries left: only a new one helps, so the resend goes with the message.
  const [burned, setBurned] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [sending, setSending] = useState(false);
  const countdown = useResendCountdown(!wantsResend);
  // Six large boxes are wider than the card on a phone (390 px): smaller ones there.
  const narrow = useMedia('(max-width: 30em)');
  const resentOnArrival = useRef(false);

  async function resend() {
    setSending(true);
    setFailure(null);
    try {
      await call(apiRoutes.auth.sendOtp, { auth: false, body: { email, purpose: 'verify' } });
      setBurned(false);
      notify.success(t('auth.verify.sent'));
      countdown.restart();
    } catch (error) {
      setFailure(translateServerMessage(t, (error as Error).message));
      const wait = retryAfterOf(error);
      if (wait) countdown.restart(wait);
    } finally {
      setSending(false);
    }
  }

  useEffect(() => {
    // Arriving from a login refused as unverified: their old code may be long gone, so send a new one.
    if (wantsResend && email && !resentOnArrival.current) {
      resentOnArrival.current = true;
      void resend();
    }
    // Only on arrival: the ref above keeps it to one send.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wantsResend, email]);

  async function verify(otp: string) {
    if (!otpPattern.test(otp)) {
      setFailure(t('validation.otp', messageValues));
      return;
    }
    setSubmitting(true);
    setFailure(null);
    try {
      const { data } = await call(apiRoutes.auth.verifyOtp, { auth: false, body: { email, otp, purpose: 'verify' } });
      notify.success(t('auth.verify.done'));
      if (data) {
        signedIn(data);
        await navigate(next ?? paths.dashboard, { replace: true });
      } else {
        // Verified but not signed in (a deactivated account): the login page says why.
        await navigate(`${paths.login}?${new URLSearchParams({ email, ...(next && { next }) })}`, { replace: true });
      }
    } catch (error) {
      const message = (error as Error).message;
      setBurned(message === messages.codeBurned);
      setFailure(translateServerMessage(t, message));
      setCode('');
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthScreen
      title={t('auth.verify.title')}
      subtitle={email ? t('auth.verify.subtitle', { ...messageValues, email }) : undefined}
      footer={
        <Anchor component={Link} to={paths.login} fw={600}>
          {t('auth.backToLogin')}
        </Anchor>
      }
    >
      {!email ? (
        <Alert color="yellow" variant="light" icon={<IconAlertCircle size={18} />}>
          {t('auth.verify.noEmail')}{' '}
          <Anchor component={Link} to={paths.register}>
            {t('auth.createAccount')}
          </Anchor>
        </Alert>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void verify(code);
          }}
          data-testid="verify-form"
        >
          <Stack gap="lg">
            <Center>
              <IconMailCheck size={48} stroke={1.3} color="var(--mooz-primary)" aria-hidden="true" />
            </Center>
            {failure && (
              <FormFailure testId="verify-failure">
                {failure}
                {burned && (
                  <ResendCode secondsLeft={countdown.secondsLeft} onResend={() => void resend()} disabled={sending} align="start" />
                )}
              </FormFailure>
            )}
            <Center>
              <CodeInput
                size={narrow ? 'md' : 'lg'}
                value={code}
                onChange={setCode}
                onComplete={(value) => void verify(value)}
                aria-label={t('auth.verify.code')}
                data-testid="otp-input"
                autoFocus
              />
            </Center>
            <Button type="submit" size="md" fullWidth loading={submitting} disabled={code.length !== limits.otpLength}>
              {t('auth.verify.submit')}
            </Button>
            {!burned && <ResendCode secondsLeft={countdown.secondsLeft} onResend={() => void resend()} disabled={sending} />}
          </Stack>
        </form>
      )}
    </AuthScreen>
  );
}
