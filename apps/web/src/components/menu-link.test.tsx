import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { MenuLink } from './menu-link';

const icon = <svg data-testid="icon" />;

describe('a menu link', () => {
  it('is a link to its page named by its label, marked when it is the current page', () => {
    render(
      <MemoryRouter initialEntries={['/courses']}>
        <MenuLink to="/courses" end icon={icon} label="Courses" active />
        <MenuLink to="/sessions" end icon={icon} label="Sessions" />
      </MemoryRouter>,
    );
    const courses = screen.getByRole('link', { name: 'Courses' });
    expect(courses.getAttribute('href')).toBe('/courses');
    expect(courses.hasAttribute('data-active')).toBe(true);
    expect(courses.getAttribute('aria-current')).toBe('page');
    const sessions = screen.getByRole('link', { name: 'Sessions' });
    expect(sessions.hasAttribute('data-active')).toBe(false);
    expect(sessions.hasAttribute('aria-current')).toBe(false);
    expect(courses.getAttribute('data-variant')).toBe('filled');
  });

  it('shows only its icon without a label, named by its aria-label', () => {
    render(
      <MemoryRouter>
        <MenuLink to="/courses" icon={icon} aria-label="Courses" variant="light" />
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'Courses' });
    expect(link.textContent).toBe('');
    expect(link.querySelectorAll('span')).toHaveLength(1);
    expect(link.getAttribute('data-variant')).toBe('light');
  });
});
