// The navbar's language button. The menu behind it (Mantine's Menu and its floating layer) is
// fetched when a pointer or the keyboard reaches the button and shown on the first click, instead of
// coming with the first page.
import { lazy, Suspense, useState } from 'react';
import { LanguageButton } from './language-button';

const loadMenu = () => import('./language-menu');
const LanguageMenu = lazy(async () => ({ default: (await loadMenu()).LanguageMenu }));

export function LanguageSwitcher() {
  const [wanted, setWanted] = useState(false);
  const button = (
    <LanguageButton
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      onClick={() => setWanted(true)}
    />
  );
  // From the first click on, the real menu takes the button's place, opened and focused.
  return <Suspense fallback={button}>{wanted ? <LanguageMenu autoFocus defaultOpened /> : button}</Suspense>;
}
