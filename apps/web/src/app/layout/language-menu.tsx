// The language menu itself (Mantine's Menu and its floating layer), loaded when someone reaches for it.
import '../../styles/mantine-more';
import { Menu } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { languages } from '@mooz/contract/limits';
import { useAuthStore } from '../../lib/auth-store';
import { languageNames } from '../../lib/i18n';
import { isSignedIn } from '../../lib/stored-auth';
import { LanguageButton } from './language-button';

export function LanguageMenu({
  autoFocus = false,
  defaultOpened = false,
}: {
  autoFocus?: boolean;
  defaultOpened?: boolean;
}) {
  const { i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <Menu position="bottom-end" shadow="md" width={180} withinPortal defaultOpened={defaultOpened}>
      <Menu.Target>
        <LanguageButton autoFocus={autoFocus} />
      </Menu.Target>
      <Menu.Dropdown>
        {languages.map((lng) => (
          <Menu.Item
            key={lng}
            lang={lng}
            onClick={() => {
              void i18n.changeLanguage(lng);
              // Mails are written in the language the app is read in: a signed-in choice is kept on the account.
              if (isSignedIn()) void useAuthStore.getState().updateProfile({ language: lng }).catch(() => undefined);
            }}
            rightSection={current === lng ? <IconCheck size={16} /> : null}
            fw={current === lng ? 600 : undefined}
          >
            {languageNames[lng]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
