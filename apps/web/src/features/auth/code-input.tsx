// The one-time code's boxes (Mantine's PinInput, one box per digit), each named for screen readers as
// "Digit 1 of 6" and so on in the user's language, rather than Mantine's untranslated "PinInput".
import { PinInput, type PinInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { limits } from '@mooz/contract/limits';

type CodeInputProps = Omit<PinInputProps, 'length' | 'type' | 'oneTimeCode' | 'getInputProps' | 'ariaLabel'>;

export function CodeInput(props: CodeInputProps) {
  const { t } = useTranslation();
  return (
    <PinInput
      length={limits.otpLength}
      type="number"
      oneTimeCode
      getInputProps={(index) => ({ 'aria-label': t('auth.code.digit', { position: index + 1, total: limits.otpLength }) })}
      {...props}
    />
  );
}
