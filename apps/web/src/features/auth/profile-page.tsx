// The signed-in user's profile: who they are, their trial, their editable details, the cards the app adds
// (purchases, mail notifications), and their calendar feed.
import '../../styles/mantine-more';
import { useEffect, useState, type ReactNode } from 'react';
import { Avatar, Badge, Button, Card, Grid, Group, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { IconAt, IconKey } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { profilePatchBody } from '@mooz/contract/auth';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api';
import { useAuthStore } from '../../lib/auth-store';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { serverFieldErrors, useTranslatedField } from '../../lib/validation';
import { CalendarFeedCard } from './calendar-feed-card';
import { ChangeEmailDialog } from './change-email-dialog';

interface ProfileValues {
  first_name: string;
  last_name: string;
  phone: string;
}

const validate = zod4Resolver(profilePatchBody, { errorPriority: 'first' });

/** `children`: cards of other features the app adds below (purchases, mail notifications). */
export function ProfilePage({ children }: { children?: ReactNode } = {}) {
  const { t, i18n } = useTranslation();
  const user = useAuthStore((s) => s.user);
  const fetchProfile = useAuthStore((s) => s.fetchProfile);
  const updateProfile = useAuthStore((s) => s.updateProfile);
  const [saving, setSaving] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [changingEmail, setChangingEmail] = useState(false);
  const form = useForm<ProfileValues>({
    mode: 'controlled',
    initialValues: { first_name: '', last_name: '', phone: '' },
    validate: (values) => validate({ ...values, phone: values.phone.trim() || null }),
  });
  const field = useTranslatedField(form);

  useEffect(() => {
    void fetchProfile().then((fresh) => {
      setLoaded(true);
      if (fresh) {
        const values = { first_name: fresh.first_name, last_name: fresh.last_name, phone: fresh.phone ?? '' };
        form.setValues(values);
        form.resetDirty(values);
      }
    });
    // The form is filled once, from the server's copy of the profile.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetchProfile]);

  const submit = form.onSubmit(async (values) => {
    setSaving(true);
    try {
      const fresh = await updateProfile({
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        phone: values.phone.trim() || null,
      });
      form.resetDirty({ first_name: fresh.first_name, last_name: fresh.last_name, phone: fresh.phone ?? '' });
      notify.success(t('profile.saved'));
    } catch (error) {
      notify.error(translateServerMessage(t, (error as Error).message));
      if (error instanceof ApiError) form.setErrors(serverFieldErrors(error.errors));
    } finally {
      setSaving(false);
    }
  });

  const fullName = [user?.first_name, user?.last_name].filter(Boolean).join(' ');
  const role = (user?.role ?? user?.user_type) as string | undefined;
  const joined = typeof user?.date_joined === 'string' ? new Date(user.date_joined) : null;

  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        {t('profile.title')}
      </Title>
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Card withBorder radius="lg" padding="xl">
            <Stack align="center" gap="xs">
              <Avatar size={88} radius={88} color="mooz" variant="light">
                {(fullName || '?').split(/\s+/).map((p) => p[0]).join('').slice(0, 2).toUpperCase()}
              </Avatar>
              {/* The card's heading: whose profile this is. */}
              <Text component="h2" fw={700} size="lg" data-testid="profile-name">
                {fullName || <Skeleton h={20} w={120} />}
              </Text>
              <Text c="dimmed" size="sm" ta="center" style={{ overflowWrap: 'anywhere' }} data-testid="profile-email">
                {user?.email}
              </Text>
              {role && <Badge variant="light">{t(`user.role.${role}`)}</Badge>}
              {joined && (
                <Text size="xs" c="dimmed">
                  {t('profile.joined', { date: joined.toLocaleDateString(i18n.resolvedLanguage, { dateStyle: 'long' }) })}
                </Text>
              )}
              <Button component={Link} to={paths.changePassword} variant="light" leftSection={<IconKey size={16} />} mt="sm">
                {t('profile.changePassword')}
              </Button>
              <Button variant="light" leftSection={<IconAt size={16} />} onClick={() => setChangingEmail(true)} data-testid="change-email">
                {t('profile.changeEmail')}
              </Button>
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Card withBorder radius="lg" padding="xl">
            <form onSubmit={submit} noValidate data-testid="profile-form">
              <Stack gap="md">
                <Title order={2} size="h4">
                  {t('profile.details')}
                </Title>
                {!loaded ? (
                  <Stack gap="md" aria-busy="true">
                    <Skeleton h={56} />
                    <Skeleton h={56} />
                  </Stack>
                ) : (
                  <>
                    <Group grow align="flex-start">
                      <TextInput {...field('first_name')} label={t('auth.firstName')} autoComplete="given-name" />
                      <TextInput {...field('last_name')} label={t('auth.lastName')} autoComplete="family-name" />
                    </Group>
                    <TextInput {...field('phone')} label={t('auth.phone')} description={t('auth.optional')} type="tel" autoComplete="tel" />
                    <TextInput label={t('auth.email')} value={user?.email ?? ''} readOnly disabled description={t('profile.emailLogin')} />
                    <Group justify="flex-end">
                      <Button type="reset" variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>
                        {t('common.cancel')}
                      </Button>
                      <Button type="submit" loading={saving} disabled={!form.isDirty()} data-testid="profile-save">
                        {t('common.save')}
                      </Button>
                    </Group>
                  </>
                )}
              </Stack>
            </form>
          </Card>
        </Grid.Col>
      </Grid>
      {children}
      <CalendarFeedCard />
      <ChangeEmailDialog opened={changingEmail} onClose={() => setChangingEmail(false)} />
    </Stack>
  );
}
