// The navbar's language button. The menu behind it (Mantine's Menu and its floating layer, ~30 KB) is
// fetched when a pointer or the keyboard reaches the button and shown on the first click, instead of
// coming with the first page.
import { lazy, Suspense, useState } from 'react';
import { ActionIcon } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const loadMenu = () => import('./language-menu');
const LanguageMenu = lazy(async () => ({ default: (await loadMenu()).LanguageMenu }));

export function LanguageSwitcher() {
  const { t } = useTranslation();
  const [wanted, setWanted] = useState(false);
  const button = (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      radius="xl"
      title={t('nav.language')}
      aria-label={t('nav.language')}
      data-testid="language-switcher"
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      onClick={() => setWanted(true)}
    >
      <IconLanguage size={20} stroke={1.6} />
    </ActionIcon>
  );
  // From the first click on, the real menu takes the button's place, opened and focused.
  return <Suspense fallback={button}>{wanted ? <LanguageMenu autoFocus defaultOpened /> : button}</Suspense>;
}
