// A menu's link (side menu, top menu, bookmarks): an icon, a label, and the current page filled in the
// brand colour, as Mantine's NavLink drew them. Our own, because NavLink brought its nested-links
// machinery (Collapse, its chevron) to every signed-in screen for links that never nest.
import { forwardRef, type ReactNode } from 'react';
import { NavLink as RouterNavLink, type NavLinkProps } from 'react-router';
import classes from './menu-link.module.css';

type Props = Omit<NavLinkProps, 'className' | 'children'> & {
  icon: ReactNode;
  /** Omitted in an icons-only menu: the link is then named by its aria-label. */
  label?: ReactNode;
  /** The current page: filled in the brand colour, or tinted with it (`light`). */
  active?: boolean;
  variant?: 'filled' | 'light';
  className?: string;
};

export const MenuLink = forwardRef<HTMLAnchorElement, Props>(function MenuLink(
  { icon, label, active = false, variant = 'filled', className, ...props },
  ref,
) {
  return (
    <RouterNavLink
      ref={ref}
      className={`${classes.link} mantine-focus-auto ${className ?? ''}`}
      data-variant={variant}
      data-active={active || undefined}
      {...props}
    >
      <span className={classes.section}>{icon}</span>
      {label !== undefined && <span className={classes.label}>{label}</span>}
    </RouterNavLink>
  );
});
