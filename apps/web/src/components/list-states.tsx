// The three non-data states every list has: loading (skeletons shaped like its items), empty (what
// it means and what to do), and error (the message and a retry).
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import { Alert, Button, Card, Center, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import classes from './list-states.module.css';

/**
 * Cards in a grid: one column, two from md (62em), three from xl (88em); `list` keeps one column. CSS
 * of our own rather than Mantine's SimpleGrid, whose responsive-style engine came with every list.
 */
export function CardGrid({ list = false, className, ...props }: ComponentPropsWithoutRef<'div'> & { list?: boolean }) {
  return <div className={`${classes.cardGrid} ${className ?? ''}`} data-list={list || undefined} {...props} />;
}

export function ListLoading({ count = 3, height = 180, list = false, testId }: {
  count?: number;
  height?: number;
  /** Items in one column (a list of rows), not cards in a grid. */
  list?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <CardGrid list={list} aria-busy="true" aria-label={t('common.loading')} data-testid={testId}>
      {Array.from({ length: count }, (_, i) => (
        <Card key={i} radius="lg" withBorder p="lg">
          <Stack gap="sm">
            <Skeleton height={20} width="60%" radius="sm" />
            <Skeleton height={12} radius="sm" />
            <Skeleton height={12} width="85%" radius="sm" />
            <Skeleton height={height - 100} radius="md" mt="xs" />
          </Stack>
        </Card>
      ))}
    </CardGrid>
  );
}

export function ListEmpty({ icon, title, description, action, testId }: {
  icon: ReactNode;
  title: string;
  description: string;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <Card radius="lg" withBorder py={48} px="lg" data-testid={testId}>
      <Center>
        <Stack align="center" gap="sm" maw={440} ta="center">
          <ThemeIcon size={72} radius={36} variant="light">
            {icon}
          </ThemeIcon>
          <Title order={3}>{title}</Title>
          <Text c="dimmed">{description}</Text>
          {action}
        </Stack>
      </Center>
    </Card>
  );
}

export function ListError({ title, message, onRetry, retrying, testId }: {
  title: string;
  message: string;
  onRetry(): void;
  retrying?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Alert color="red" radius="lg" icon={<IconAlertCircle size={20} />} title={title} data-testid={testId}>
      <Group justify="space-between" gap="sm">
        <Text size="sm">{message}</Text>
        <Button size="xs" variant="white" color="red" leftSection={<IconRefresh size={14} />} onClick={onRetry} loading={retrying}>
          {t('common.retry')}
        </Button>
      </Group>
    </Alert>
  );
}

/** A page's title row: heading, one line of context, and the page's main actions. */
export function PageHeader({ title, description, actions }: { title: string; description?: string; actions?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" gap="md" mb="lg" wrap="wrap">
      <div>
        <Title order={1} size="h2">
          {title}
        </Title>
        {description && (
          <Text c="dimmed" mt={4}>
            {description}
          </Text>
        )}
      </div>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}
