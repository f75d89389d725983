// The navbar's language button, the same before and after the menu behind it has loaded.
import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { ActionIcon } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export const LanguageButton = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<'button'>>(
  function LanguageButton(props, ref) {
    const { t } = useTranslation();
    return (
      <ActionIcon
        ref={ref}
        variant="subtle"
        color="gray"
        size="lg"
        radius="xl"
        title={t('nav.language')}
        aria-label={t('nav.language')}
        data-testid="language-switcher"
        {...props}
      >
        <IconLanguage size={20} stroke={1.6} />
      </ActionIcon>
    );
  },
);
