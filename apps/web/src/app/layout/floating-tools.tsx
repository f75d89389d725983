// With the navbar hidden, its search, settings and user menu stay in reach: a small column at the
// inline end of the screen.
import { SearchButton } from './search';
import { SettingsButton } from './settings-panel';
import { UserMenu } from './user-menu';
import classes from './layout.module.css';

export function FloatingTools({ onSearch }: { onSearch: () => void }) {
  return (
    <div className={classes.floatingTools} data-testid="floating-tools">
      <SearchButton onOpen={onSearch} compact />
      <SettingsButton />
      <UserMenu compact />
    </div>
  );
}
