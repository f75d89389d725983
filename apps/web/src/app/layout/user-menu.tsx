// The navbar's account button. The menu behind it (Mantine's Menu and its floating layer) is fetched
// when a pointer or the keyboard reaches the button and shown on the first click, instead of coming
// with every signed-in screen (as the language menu does: language-switcher.tsx).
import { lazy, Suspense, useState } from 'react';
import { UserButton } from './user-button';

const loadMenu = () => import('./user-menu-open');
const OpenUserMenu = lazy(async () => ({ default: (await loadMenu()).OpenUserMenu }));

export function UserMenu({ compact = false }: { compact?: boolean }) {
  const [wanted, setWanted] = useState(false);
  const button = (
    <UserButton
      compact={compact}
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      onClick={() => setWanted(true)}
    />
  );
  // From the first click on, the real menu takes the button's place, opened and focused.
  return (
    <Suspense fallback={button}>
      {wanted ? <OpenUserMenu compact={compact} autoFocus defaultOpened /> : button}
    </Suspense>
  );
}
