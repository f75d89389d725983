// The profile with its purchases and mail preferences: the app joins the features (they never import each other).
import { ProfilePage } from '../../features/auth/profile-page';
import { MailPreferencesCard } from '../../features/notifications/mail-preferences-card';
import { PurchasesCard } from '../../features/notifications/purchases-card';

export function ProfileRoute() {
  return (
    <ProfilePage>
      <PurchasesCard />
      <MailPreferencesCard />
    </ProfilePage>
  );
}
