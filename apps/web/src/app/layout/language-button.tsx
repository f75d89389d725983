// The navbar's language button, the same before and after the menu behind it has loaded.
import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { BarButton } from './bar-button';

export const LanguageButton = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<'button'>>(
  function LanguageButton(props, ref) {
    const { t } = useTranslation();
    return (
      <BarButton ref={ref} label={t('nav.language')} data-testid="language-switcher" {...props}>
        <IconLanguage size={20} stroke={1.6} />
      </BarButton>
    );
  },
);
