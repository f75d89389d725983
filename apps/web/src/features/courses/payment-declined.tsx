// When the checkout reports a failed payment (a declined card, a cancelled bank check): say plainly that
// the payment did not go through and nothing was charged, and offer to open the checkout again. This
// is not "Payment verification failed", which is kept for a payment whose signature we refuse.
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCreditCardOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DeclinedPayment } from './use-enrollment';

export function PaymentDeclined({ declined }: { declined: DeclinedPayment | null }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={declined !== null}
      onClose={() => declined?.dismiss()}
      title={<Text fw={700}>{t('enroll.declined.title')}</Text>}
      centered
      data-testid="payment-declined"
    >
      {declined && (
        <Stack gap="md">
          <Alert color="orange" icon={<IconCreditCardOff size={18} />}>
            {t('enroll.declined.body')}
          </Alert>
          {declined.reason && (
            <Text size="sm" c="dimmed" data-testid="payment-declined-reason">
              {t('enroll.declined.reason', { reason: declined.reason })}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => declined.dismiss()} data-testid="payment-declined-dismiss">
              {t('enroll.declined.dismiss')}
            </Button>
            <Button onClick={() => declined.retry()} data-testid="payment-retry">
              {t('enroll.declined.retry')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
