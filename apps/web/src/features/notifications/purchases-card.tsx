// The profile's "Purchases" card: each course bought, its batch dates, amount and state (paid or
// refunded), and its PDF receipt to download. The receipt mail links here (#purchases).
import { useId, useState } from 'react';
import { Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconFileDownload, IconReceipt } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { apiRoutes } from '@mooz/contract/api-routes';
import { messages } from '@mooz/contract/messages';
import type { Purchase } from '@mooz/contract/notifications';
import { ListError } from '../../components/list-states';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api';
import { isolate } from '../../lib/bidi';
import { downloadFile } from '../../lib/download';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { usePurchases } from './use-notifications';
import { dateTimeFormat, numberFormat } from '../../lib/intl';

function money(amount: number, currency: string, language: string | undefined) {
  const format = numberFormat(language, { style: 'currency', currency });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

function PurchaseRow({ purchase }: { purchase: Purchase }) {
  const { t, i18n } = useTranslation();
  const [downloading, setDownloading] = useState(false);
  const day = (iso: string) => dateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(apiRoutes.purchases.receipt, { id: purchase.id }, `Receipt ${purchase.receipt_number}.pdf`);
    } catch (error) {
      notify.error(translateServerMessage(t, messageOf(error, messages.unexpected)));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <li>
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap" py="sm" data-testid="purchase">
        <Stack gap={2} miw={0} style={{ flex: '1 1 220px' }}>
          <Group gap="xs">
            <Text fw={600} component={Link} to={paths.course(purchase.course_id)} c="inherit">
              {purchase.course_name}
            </Text>
            <Badge variant="light" color={purchase.status === 'paid' ? 'teal' : 'gray'}>
              {t(`purchases.status.${purchase.status}`)}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {t(`purchases.batch.${purchase.batch}`)} · {isolate(`${day(purchase.start_date)} – ${day(purchase.end_date)}`)}
          </Text>
          <Text size="sm">
            {isolate(money(purchase.amount, purchase.currency, i18n.resolvedLanguage))} · {t('purchases.receiptNumber', { number: purchase.receipt_number })}
          </Text>
        </Stack>
        <Button variant="light" leftSection={<IconFileDownload size={16} />} onClick={() => void download()} loading={downloading} data-testid="purchase-receipt">
          {t('purchases.download')}
        </Button>
      </Group>
    </li>
  );
}

export function PurchasesCard() {
  const { t } = useTranslation();
  const titleId = useId();
  const purchases = usePurchases();
  return (
    <Card withBorder radius="lg" padding="xl" id="purchases" aria-labelledby={titleId} component="section" data-testid="purchases">
      <Stack gap="xs">
        <Title order={2} size="h4" id={titleId}>
          {t('purchases.title')}
        </Title>
        {purchases.isPending ? (
          <Stack gap="sm" aria-busy="true" aria-label={t('common.loading')}>
            <Skeleton h={56} />
            <Skeleton h={56} />
          </Stack>
        ) : purchases.isError ? (
          <ListError title={t('purchases.title')} message={t('purchases.loadFailed')} onRetry={() => void purchases.refetch()} retrying={purchases.isFetching} />
        ) : purchases.data.length === 0 ? (
          <Group gap="sm" py="sm" data-testid="purchases-empty">
            <IconReceipt size={22} aria-hidden />
            <Text size="sm" c="dimmed">
              {t('purchases.empty')}
            </Text>
            <Button component={Link} to={paths.courses} variant="subtle" size="compact-sm">
              {t('purchases.browse')}
            </Button>
          </Group>
        ) : (
          <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
            {purchases.data.map((p) => (
              <PurchaseRow key={p.id} purchase={p} />
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
