// The email address that opens the sign-in and the password-reset forms, where the cursor starts.
import { TextInput, type TextInputProps } from '@mantine/core';
import { IconAt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export function EmailInput(props: TextInputProps) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('auth.email')}
      placeholder={t('auth.email.placeholder')}
      type="email"
      autoComplete="email"
      leftSection={<IconAt size={18} stroke={1.6} />}
      data-autofocus
      {...props}
    />
  );
}
