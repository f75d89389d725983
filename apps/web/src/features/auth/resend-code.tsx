// "Send a new code in 42 s", then the link that sends it: the one-time code screens' shared footer.
import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function ResendCode({ secondsLeft, onResend, disabled }: { secondsLeft: number; onResend(): void; disabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <Text ta="center" size="sm" c="dimmed" aria-live="polite">
      {secondsLeft > 0 ? (
        t('auth.verify.resendIn', { seconds: secondsLeft })
      ) : (
        <Anchor component="button" type="button" onClick={onResend} disabled={disabled} fw={600}>
          {t('auth.verify.resend')}
        </Anchor>
      )}
    </Text>
  );
}
