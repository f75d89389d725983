// The first screen a visitor sees: what Mooz is, and the login form.
import { useState } from 'react';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconAt, IconChartLine, IconLock, IconPlayerPlay, IconVideo } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, safeNext } from '../../config/paths';
import { translateServerMessage } from '../../lib/server-message';
import { LogoMark } from '../../components/logo';
import { logIn, LoginError, type LoginValues } from './login-request';
import classes from './login-page.module.css';

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const highlights = [
  { icon: IconVideo, titleKey: 'auth.hero.live.title', textKey: 'auth.hero.live.text' },
  { icon: IconPlayerPlay, titleKey: 'auth.hero.recorded.title', textKey: 'auth.hero.recorded.text' },
  { icon: IconChartLine, titleKey: 'auth.hero.progress.title', textKey: 'auth.hero.progress.text' },
] as const;

function HeroPanel() {
  const { t } = useTranslation();
  return (
    <Box className={classes.hero} visibleFrom="md" aria-labelledby="hero-title">
      <div className={classes.heroGlow} aria-hidden="true" />
      <Stack gap="xl" className={classes.heroContent}>
        <Text className={classes.heroEyebrow}>{t('auth.hero.eyebrow')}</Text>
        <Title order={2} id="hero-title" className={classes.heroTitle}>
          {t('auth.hero.title')}
        </Title>
        <Text className={classes.heroText}>{t('auth.hero.text')}</Text>
        <Stack gap="md" component="ul" className={classes.highlights}>
          {highlights.map(({ icon: Icon, titleKey, textKey }) => (
            <Group key={titleKey} component="li" gap="md" wrap="nowrap" align="flex-start">
              <ThemeIcon size={44} radius="md" className={classes.highlightIcon}>
                <Icon size={22} stroke={1.6} />
              </ThemeIcon>
              <div>
                <Text fw={600} c="white">
                  {t(titleKey)}
                </Text>
                <Text size="sm" className={classes.heroText}>
                  {t(textKey)}
                </Text>
              </div>
            </Group>
          ))}
        </Stack>
        <div className={classes.liveCard} aria-hidden="true">
          <span className={classes.liveDot} />
          <div>
            <Text size="sm" fw={600} c="white">
              {t('auth.hero.sample.title')}
            </Text>
            <Text size="xs" className={classes.heroText}>
              {t('auth.hero.sample.text')}
            </Text>
          </div>
        </div>
      </Stack>
    </Box>
  );
}

export function LoginForm({ onSubmit }: { onSubmit: (values: LoginValues) => Promise<void> }) {
  const { t } = useTranslation();
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // Errors hold translation keys, so they follow a language switch.
  const form = useForm<LoginValues>({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) =>
        !value.trim()
          ? 'auth.validation.emailRequired'
          : emailPattern.test(value.trim())
            ? null
            : 'auth.validation.email',
      password: (value) => (value ? null : 'auth.validation.passwordRequired'),
    },
  });
  const errorOf = (field: keyof LoginValues) => {
    const key = form.errors[field];
    return typeof key === 'string' ? t(key) : undefined;
  };

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    setSubmitting(true);
    try {
      await onSubmit({ email: values.email.trim(), password: values.password });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      setFailure(translateServerMessage(t, message));
      if (error instanceof LoginError) {
        for (const [field, fieldMessages] of Object.entries(error.fieldErrors)) {
          if (field === 'email' || field === 'password') form.setFieldError(field, fieldMessages[0] ?? '');
        }
      }
    } finally {
      setSubmitting(false);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-labelledby="login-title" data-testid="login-form">
      <Stack gap="md">
        {failure && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle size={18} />}
            role="alert"
            data-testid="login-error"
          >
            {failure}
          </Alert>
        )}
        <TextInput
          {...form.getInputProps('email')}
          key={form.key('email')}
          error={errorOf('email')}
          label={t('auth.email')}
          placeholder={t('auth.email.placeholder')}
          type="email"
          autoComplete="email"
          size="md"
          leftSection={<IconAt size={18} stroke={1.6} />}
          data-autofocus
          required
          withAsterisk={false}
        />
        <PasswordInput
          {...form.getInputProps('password')}
          key={form.key('password')}
          error={errorOf('password')}
          label={t('auth.password')}
          placeholder="••••••••"
          autoComplete="current-password"
          size="md"
          leftSection={<IconLock size={18} stroke={1.6} />}
          required
          withAsterisk={false}
        />
        <Group justify="flex-end" mt={-6}>
          <Anchor component={Link} to={paths.forgotPassword} size="sm" fw={500}>
            {t('auth.forgotPassword')}
          </Anchor>
        </Group>
        <Button type="submit" size="md" fullWidth loading={submitting} data-testid="login-submit">
          {t('auth.login.submit')}
        </Button>
      </Stack>
    </form>
  );
}

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));

  return (
    <div className={classes.page}>
      <HeroPanel />
      <div className={classes.formColumn}>
        <Paper className={classes.formCard} radius="lg" p={{ base: 'lg', sm: 40 }} withBorder>
          <Stack gap={6} mb="xl">
            <LogoMark size={44} />
            <Title order={1} id="login-title" className={classes.formTitle}>
              {t('auth.login.title')}
            </Title>
            <Text c="dimmed">{t('auth.login.subtitle')}</Text>
          </Stack>
          <LoginForm
            onSubmit={async (values) => {
              await logIn(values);
              await navigate(next ?? paths.dashboard, { replace: true });
            }}
          />
          <Text ta="center" size="sm" mt="xl" c="dimmed">
            {t('auth.noAccount')}{' '}
            <Anchor component={Link} to={paths.register} fw={600}>
              {t('auth.createAccount')}
            </Anchor>
          </Text>
        </Paper>
      </div>
    </div>
  );
}
