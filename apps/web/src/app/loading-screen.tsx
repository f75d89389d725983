// Full-page indicator while the app (or a screen) loads: the product logo and three animated dots.
// Plain CSS only, so it can show before Mantine and the translations are loaded.
import { Logo } from '../components/logo';

export function LoadingScreen({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="mooz-loading" role="status" aria-live="polite" data-testid="loading-screen">
      <Logo size={56} className="mooz-loading__logo" />
      <div className="mooz-loading__dots" aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
      <span className="mooz-visually-hidden">{label}</span>
    </div>
  );
}
