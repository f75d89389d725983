import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { languages } from '@mooz/contract/limits';
import { languageNames } from '../../lib/i18n';

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <Menu position="bottom-end" shadow="md" width={180} withinPortal>
      <Menu.Target>
        <Tooltip label={t('nav.language')}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            radius="xl"
            aria-label={t('nav.language')}
            data-testid="language-switcher"
          >
            <IconLanguage size={20} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {languages.map((lng) => (
          <Menu.Item
            key={lng}
            lang={lng}
            onClick={() => void i18n.changeLanguage(lng)}
            rightSection={i18n.language === lng || current === lng ? <IconCheck size={16} /> : null}
            fw={i18n.language === lng ? 600 : undefined}
          >
            {languageNames[lng]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
