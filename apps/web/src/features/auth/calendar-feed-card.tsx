// The profile's "Calendar feed" card: a private address calendar apps subscribe to (Google Calendar,
// Outlook, Apple Calendar), shown as https:// and webcal://, each with a copy button; made on demand,
// replaced with a new one, or turned off after a confirmation. Whoever has the address sees the
// classes in it, so the card says so.
import { useId, useState } from 'react';
import { ActionIcon, Alert, Button, Card, CopyButton, Group, List, Modal, Skeleton, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconCalendarPlus, IconCalendarX, IconCheck, IconCopy, IconInfoCircle, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { messages } from '@mooz/contract/messages';
import { ListError } from '../../components/list-states';
import { messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { useCalendarFeed, useCreateCalendarFeed, useRevokeCalendarFeed } from './use-calendar-feed';

function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  // The copy button sits inside the field, so the address keeps the whole width on a phone.
  return (
    <TextInput
      label={label}
      value={value}
      readOnly
      onFocus={(event) => event.currentTarget.select()}
      data-testid={testId}
      rightSectionWidth={44}
      rightSectionPointerEvents="all"
      rightSection={
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('calendar.copied') : t('calendar.copy')} withArrow>
              <ActionIcon
                variant="subtle"
                color={copied ? 'teal' : 'gray'}
                onClick={copy}
                aria-label={t(copied ? 'calendar.copiedLabel' : 'calendar.copyLabel', { label })}
                data-testid={`${testId}-copy`}
              >
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      }
    />
  );
}

export function CalendarFeedCard() {
  const { t } = useTranslation();
  const titleId = useId();
  const feed = useCalendarFeed();
  const create = useCreateCalendarFeed();
  const revoke = useRevokeCalendarFeed();
  const [confirming, setConfirming] = useState(false);
  const failed = (error: unknown) => notify.error(translateServerMessage(t, messageOf(error, messages.unexpected)));
  const address = feed.data?.data ?? null;

  const make = () =>
    create.mutate(undefined, {
      onSuccess: (response) => notify.success(translateServerMessage(t, response.message ?? messages.calendarFeedCreated)),
      onError: failed,
    });
  const turnOff = () =>
    revoke.mutate(undefined, {
      onSuccess: (response) => {
        setConfirming(false);
        notify.success(translateServerMessage(t, response.message ?? messages.calendarFeedRevoked));
      },
      onError: failed,
    });

  return (
    <Card withBorder radius="lg" padding="xl" component="section" aria-labelledby={titleId} data-testid="calendar-feed-card">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id={titleId}>
            {t('calendar.title')}
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            {t('calendar.description')}
          </Text>
        </div>
        {feed.isPending ? (
          <Skeleton h={56} aria-busy="true" />
        ) : feed.isError ? (
          <ListError
            testId="calendar-feed-error"
            title={t('calendar.errorTitle')}
            message={translateServerMessage(t, messageOf(feed.error, messages.unexpected))}
            onRetry={() => void feed.refetch()}
            retrying={feed.isFetching}
          />
        ) : address ? (
          <>
            <CopyField label={t('calendar.webcalLabel')} value={address.webcal_url} testId="calendar-feed-webcal" />
            <CopyField label={t('calendar.httpsLabel')} value={address.url} testId="calendar-feed-url" />
            <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} title={t('calendar.howTitle')}>
              <List size="sm" spacing={4}>
                <List.Item>{t('calendar.howGoogle')}</List.Item>
                <List.Item>{t('calendar.howOutlook')}</List.Item>
                <List.Item>{t('calendar.howApple')}</List.Item>
              </List>
            </Alert>
            <Text size="xs" c="dimmed">
              {t('calendar.private')}
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" leftSection={<IconRefresh size={16} />} loading={create.isPending} onClick={make} data-testid="calendar-feed-rotate">
                {t('calendar.rotate')}
              </Button>
              <Button color="red" variant="light" leftSection={<IconCalendarX size={16} />} onClick={() => setConfirming(true)} data-testid="calendar-feed-revoke">
                {t('calendar.revoke')}
              </Button>
            </Group>
          </>
        ) : (
          <Group justify="space-between" gap="sm">
            <Text size="sm">{t('calendar.none')}</Text>
            <Button leftSection={<IconCalendarPlus size={16} />} loading={create.isPending} onClick={make} data-testid="calendar-feed-create">
              {t('calendar.create')}
            </Button>
          </Group>
        )}
      </Stack>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('calendar.revokeTitle')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
        centered
        data-testid="calendar-feed-revoke-dialog"
      >
        <Stack gap="md">
          <Text size="sm">{t('calendar.revokeBody')}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
              {t('common.cancel')}
            </Button>
            <Button color="red" loading={revoke.isPending} onClick={turnOff} data-testid="calendar-feed-revoke-confirm">
              {t('calendar.revokeConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
