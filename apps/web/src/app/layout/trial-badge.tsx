// While a student is in trial, the navbar shows how long is left, counting down live. A trial is a time
// to decide whether to buy: whoever the rules do not let enroll (staff) never sees one.
import { useEffect, useState } from 'react';
import { Badge, Box, VisuallyHidden } from '@mantine/core';
import { IconHourglass } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../config/paths';
import { useAbility } from '../../lib/ability';
import { useAuthStore } from '../../lib/auth-store';
import { Hint } from '../../components/hint';

function formatRemaining(seconds: number): { days: number; hours: number; minutes: number } {
  return {
    days: Math.floor(seconds / 86_400),
    hours: Math.floor((seconds % 86_400) / 3600),
    minutes: Math.floor((seconds % 3600) / 60),
  };
}

export function TrialBadge() {
  const ability = useAbility();
  return ability.can('create', 'Enrollment') ? <TrialCountdown /> : null;
}

function TrialCountdown() {
  const { t } = useTranslation();
  const trial = useAuthStore((s) => s.trial);
  const fetchTrialStatus = useAuthStore((s) => s.fetchTrialStatus);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    void fetchTrialStatus();
  }, [fetchTrialStatus]);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(timer);
  }, []);

  if (!trial?.is_trial || !trial.trial_ends_at) return null;
  const left = Math.max(0, Math.floor((new Date(trial.trial_ends_at).getTime() - now) / 1000));
  if (left === 0) {
    // The trial just ran out: ask the server, which decides what that means.
    void fetchTrialStatus();
    return null;
  }
  const { days, hours, minutes } = formatRemaining(left);
  const label = days > 0 ? t('trial.daysLeft', { count: days, hours }) : t('trial.hoursLeft', { hours, minutes });
  // A phone's navbar has room for "6 d" only; the badge's name still says it in full, after the words
  // shown (so that speech input can say what it sees, WCAG 2.5.3).
  const short = days > 0 ? t('trial.daysLeftShort', { count: days }) : t('trial.hoursLeftShort', { hours });
  return (
    <Hint label={t('trial.tooltip')} position="bottom">
      <Badge
        component={Link}
        to={paths.courses}
        variant="light"
        color="orange"
        size="lg"
        radius="sm"
        leftSection={<IconHourglass size={14} />}
        style={{ cursor: 'pointer', textTransform: 'none', flexShrink: 0 }}
        data-testid="trial-badge"
      >
        <Box component="span" visibleFrom="sm">
          {label}
        </Box>
        <Box component="span" hiddenFrom="sm">
          <span data-testid="trial-badge-short">{short}</span>
          <VisuallyHidden> ({label})</VisuallyHidden>
        </Box>
      </Badge>
    </Hint>
  );
}
