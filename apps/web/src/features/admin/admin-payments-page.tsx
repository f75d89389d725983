// /admin/payments: every enrollment and its payment (student, course, batch, status, amount, the
// provider's ids, dates), filtered by status (created, failed with the provider's reason, abandoned,
// paid, refunded); a paid one can be marked refunded, after a confirmation
// saying what that does: the student loses the course and the batch seat is freed.
import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconReceipt, IconReceiptRefund } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { paymentStatuses, type AdminPayment } from '@mooz/contract/admin';
import { PageHeader } from '../../components/list-states';
import { formatDate, formatPrice } from '../../lib/format';
import { ConfirmDialog } from './confirm-dialog';
import { DataList, type Column } from './data-list';
import { Filters, useListState } from './filters';
import { Person, StatusBadge, useChoices, useFormatInstant } from './labels';
import { useAdminPayments, useRefundPayment } from './use-admin';

function Ids({ payment }: { payment: AdminPayment }) {
  return (
    <Stack gap={0}>
      <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
        {payment.order_id}
      </Text>
      <Text size="xs" ff="monospace" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {payment.payment_id ?? '—'}
      </Text>
    </Stack>
  );
}

export function AdminPaymentsPage() {
  const { t, i18n } = useTranslation();
  const list = useListState({ q: '', status: '' });
  const payments = useAdminPayments(list.filters, list.page);
  const refund = useRefundPayment();
  const [confirming, setConfirming] = useState<AdminPayment | null>(null);
  const formatInstant = useFormatInstant();
  const choices = useChoices();
  const locale = i18n.language;

  const batchOf = (p: AdminPayment) =>
    `${p.batch.kind === 'weekdays' ? t('enroll.weekdaysBatch') : t('enroll.weekendsBatch')} · ${formatDate(p.batch.start_date, locale)}`;
  const columns: Column<AdminPayment>[] = [
    { key: 'student', header: t('admin.payments.student'), cell: (p) => <Person name={p.student.name} email={p.student.email} /> },
    {
      key: 'course',
      header: t('admin.payments.course'),
      cell: (p) => (
        <Stack gap={0}>
          <Text size="sm">{p.course.name}</Text>
          <Text size="xs" c="dimmed">
            {batchOf(p)}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'status',
      header: t('admin.payments.status'),
      // Inline, so the badge and the reason follow the cell's alignment (start in the table, end on a phone's card).
      cell: (p) => (
        <>
          <StatusBadge kind="payment" status={p.status} />
          {p.status === 'failed' && (
            // The provider's own words, as it gave them (not translated).
            <Text size="xs" c="dimmed" mt={4} maw={260} style={{ overflowWrap: 'anywhere' }} data-testid="payment-failure-reason">
              {p.failure_reason ?? t('admin.payments.noReason')}
            </Text>
          )}
        </>
      ),
    },
    { key: 'amount', header: t('admin.payments.amount'), cell: (p) => formatPrice(p.amount, p.currency, locale) },
    { key: 'ids', header: t('admin.payments.ids'), cell: (p) => <Ids payment={p} /> },
    {
      key: 'dates',
      header: t('admin.payments.dates'),
      cell: (p) => (
        <Text size="xs">
          {p.refunded_at
            ? t('admin.payments.refundedOn', { date: formatInstant(p.refunded_at) })
            : p.activated_at
              ? t('admin.payments.paidOn', { date: formatInstant(p.activated_at) })
              : p.failed_at
                ? t('admin.payments.failedOn', { date: formatInstant(p.failed_at) })
                : t('admin.payments.orderedOn', { date: formatInstant(p.created_at) })}
        </Text>
      ),
    },
  ];

  return (
    <div data-testid="admin-payments-page">
      <PageHeader title={t('admin.payments.title')} description={t('admin.payments.subtitle')} />
      <Filters
        search={list.filters.q}
        onSearch={(q) => list.set('q', q)}
        searchLabel={t('admin.payments.search')}
        values={list.filters}
        onChoose={list.set}
        choices={[{ name: 'status', label: t('admin.payments.status'), options: choices('paymentStatus', paymentStatuses, 'admin.anyStatus') }]}
      />
      <DataList
        label={t('admin.payments.title')}
        testId="admin-payments"
        query={payments}
        columns={columns}
        rowKey={(p) => p.id}
        page={list.page}
        onPage={list.setPage}
        errorTitle={t('admin.payments.error')}
        empty={{ icon: <IconReceipt size={32} />, title: t('admin.payments.empty.title'), description: t('admin.payments.empty.description') }}
        actions={(p) =>
          p.status === 'paid' && (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconReceiptRefund size={14} />}
              onClick={() => setConfirming(p)}
              aria-label={t('admin.payments.refundWhat', { student: p.student.name, course: p.course.name })}
              data-testid="refund-payment"
            >
              {t('admin.payments.refund')}
            </Button>
          )
        }
      />
      <ConfirmDialog
        opened={confirming !== null}
        title={t('admin.payments.confirm.title')}
        confirmLabel={t('admin.payments.refund')}
        color="grape"
        busy={refund.isPending}
        onClose={() => setConfirming(null)}
        onConfirm={() => refund.mutate(confirming!.id, { onSuccess: () => setConfirming(null) })}
      >
        {confirming &&
          t('admin.payments.confirm.body', {
            amount: formatPrice(confirming.amount, confirming.currency, locale),
            student: confirming.student.name,
            course: confirming.course.name,
          })}
      </ConfirmDialog>
    </div>
  );
}
