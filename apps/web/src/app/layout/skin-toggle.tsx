import { IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLayoutPreferences } from '../../lib/layout-preferences';
import { BarButton } from './bar-button';

export function SkinToggle() {
  const { t } = useTranslation();
  const skin = useLayoutPreferences((state) => state.skin);
  const toggleSkin = useLayoutPreferences((state) => state.toggleSkin);
  const label = skin === 'dark' ? t('settings.lightSkin') : t('settings.darkSkin');
  return (
    <BarButton label={label} onClick={toggleSkin} data-testid="skin-toggle">
      {skin === 'dark' ? <IconSun size={20} stroke={1.6} /> : <IconMoon size={20} stroke={1.6} />}
    </BarButton>
  );
}
