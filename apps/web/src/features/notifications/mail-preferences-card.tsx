// The profile's "Mail notifications" card: one switch per kind of notification that may be turned off,
// and the security and payment mails listed as always on. The bell shows everything whatever is chosen.
import { useId } from 'react';
import { Card, Divider, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { messages } from '@mooz/contract/messages';
import type { NotificationKind } from '@mooz/contract/notifications';
import { ListError } from '../../components/list-states';
import { messageOf } from '../../lib/api';
import { useAuthStore } from '../../lib/auth-store';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { useMailPreferences, useSetMailPreference } from './use-notifications';

export function MailPreferencesCard() {
  const { t } = useTranslation();
  const titleId = useId();
  const preferences = useMailPreferences();
  // Only a teacher has batches that students join.
  const role = useAuthStore((s) => (s.user?.role ?? s.user?.user_type) as string | undefined);
  const concerns = (kind: NotificationKind) => kind !== 'student_joined' || role !== 'student';
  const set = useSetMailPreference();
  const change = (kind: NotificationKind, mail: boolean) =>
    set.mutate(
      { kind, mail },
      {
        onSuccess: () => notify.success(t('notifications.preferencesSaved')),
        onError: (error) => notify.error(translateServerMessage(t, messageOf(error, messages.unexpected))),
      },
    );

  return (
    <Card withBorder radius="lg" padding="xl" id="mail-preferences" aria-labelledby={titleId} component="section" data-testid="mail-preferences">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id={titleId}>
            {t('notifications.mailTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('notifications.mailIntro')}
          </Text>
        </div>
        {preferences.isPending ? (
          <Stack gap="sm" aria-busy="true" aria-label={t('common.loading')}>
            {[1, 2, 3, 4].map((i) => (
              <Skeleton key={i} h={28} />
            ))}
          </Stack>
        ) : preferences.isError ? (
          <ListError title={t('notifications.mailTitle')} message={t('notifications.loadFailed')} onRetry={() => void preferences.refetch()} retrying={preferences.isFetching} />
        ) : (
          <>
            <Stack gap="sm">
              {preferences.data
                .filter((p) => !p.locked && concerns(p.kind))
                .map((p) => (
                  <Switch
                    key={p.kind}
                    checked={p.mail}
                    onChange={(event) => change(p.kind, event.currentTarget.checked)}
                    label={t(`notifications.pref.${p.kind}`)}
                    disabled={set.isPending && set.variables?.kind === p.kind}
                    data-testid={`mail-pref-${p.kind}`}
                  />
                ))}
            </Stack>
            <Divider />
            <Stack gap="xs">
              <Title order={3} size="h6">
                {t('notifications.alwaysTitle')}
              </Title>
              {preferences.data
                .filter((p) => p.locked)
                .map((p) => (
                  <Switch key={p.kind} checked readOnly disabled label={t(`notifications.pref.${p.kind}`)} />
                ))}
              <Text size="xs" c="dimmed">
                {t('notifications.alwaysBody')}
              </Text>
            </Stack>
          </>
        )}
      </Stack>
    </Card>
  );
}
