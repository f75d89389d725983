// "Send a new code in 42 s", then the link that sends it: the one-time code screens' shared footer.
import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function ResendCode({ secondsLeft, onResend, disabled, align = 'center' }: {
  secondsLeft: number;
  onResend(): void;
  disabled?: boolean;
  /** `start` inside a message (a burned code's), under its words. */
  align?: 'center' | 'start';
}) {
  const { t } = useTranslation();
  return (
    <Text ta={align} size="sm" c={align === 'start' ? undefined : 'dimmed'} mt={align === 'start' ? 6 : undefined} aria-live="polite" data-testid="resend-code">
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
