// The Mooz mark: an "M" on a violet tile with a "live" dot. Same drawing as public/logo.svg.
import { useId } from 'react';

interface LogoMarkProps {
  size?: number;
  className?: string;
}

export function LogoMark({ size = 40, className }: LogoMarkProps) {
  const gradientId = useId();
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="var(--mooz-primary, #6c5ce7)" />
          <stop offset="1" stopColor="#a66efa" />
        </linearGradient>
      </defs>
      <rect width="48" height="48" rx="14" fill={`url(#${gradientId})`} />
      <path
        d="M13.5 33V17.5L24 28l10.5-10.5V33"
        fill="none"
        stroke="#fff"
        strokeWidth="4.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="37" cy="11" r="4.5" fill="#ffb547" stroke="#fff" strokeWidth="2" />
    </svg>
  );
}

interface LogoProps extends LogoMarkProps {
  /** Hide the word when space is tight (collapsed menu, small screens). */
  withWordmark?: boolean;
}

export function Logo({ size = 36, withWordmark = true, className }: LogoProps) {
  return (
    <span className={['mooz-logo', className].filter(Boolean).join(' ')} role="img" aria-label="Mooz">
      <LogoMark size={size} />
      {withWordmark && (
        <span className="mooz-logo__word" style={{ fontSize: size * 0.7 }} aria-hidden="true">
          mooz
        </span>
      )}
    </span>
  );
}
