// The sandbox provider's checkout: a local stand-in for Razorpay's dialog with the same options and
// the same three outcomes (paid, failed, closed). Paying asks the server to sign the payment exactly as
// the provider would, and a declined payment is reported as the provider's webhook would report it (so
// admins see it failed, and why); only the sandbox provider answers those calls.
import { useState } from 'react';
import { Badge, Box, Button, CloseButton, Divider, Group, Modal, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { IconCreditCard, IconLock, IconShieldCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { apiRoutes } from '@mooz/contract/api-routes';
import { call, messageOf } from '../../lib/api';
import { formatPrice } from '../../lib/format';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import type { CheckoutPrefill } from './checkout';
import type { SandboxCheckoutState } from './use-enrollment';
import classes from './courses.module.css';

/** Like Razorpay's form: starts with the buyer's own details, which they may change (none is read-only). */
function ContactFields({ prefill }: { prefill: CheckoutPrefill }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState(prefill.email);
  const [phone, setPhone] = useState(prefill.contact);
  return (
    <>
      <TextInput
        label={t('enroll.sandbox.email')}
        type="email"
        autoComplete="email"
        value={email}
        onChange={(event) => setEmail(event.currentTarget.value)}
        size="sm"
        data-testid="sandbox-email"
      />
      <TextInput
        label={t('enroll.sandbox.phone')}
        type="tel"
        autoComplete="tel"
        value={phone}
        onChange={(event) => setPhone(event.currentTarget.value)}
        size="sm"
        data-testid="sandbox-phone"
      />
    </>
  );
}

export function SandboxCheckout({ checkout }: { checkout: SandboxCheckoutState | null }) {
  const { t, i18n } = useTranslation();
  const [paying, setPaying] = useState(false);
  const options = checkout?.options;

  async function pay() {
    if (!checkout) return;
    setPaying(true);
    try {
      const { data } = await call(apiRoutes.payments.sandboxPay, { body: { order_id: checkout.options.order_id } });
      checkout.callbacks.onPaid(data);
    } catch (error) {
      notify.error(translateServerMessage(t, messageOf(error, t('enroll.sandbox.payFailed'))));
      checkout.callbacks.onFailed();
    } finally {
      setPaying(false);
    }
  }

  function decline() {
    if (!checkout) return;
    // The buyer is told at once; the server's record of it is for admins, and a lost one changes nothing here.
    void call(apiRoutes.payments.sandboxFail, { body: { order_id: checkout.options.order_id } }).catch(() => undefined);
    checkout.callbacks.onFailed();
  }

  return (
    <Modal
      opened={checkout !== null}
      onClose={() => !paying && checkout?.callbacks.onClosed()}
      withCloseButton={false}
      padding={0}
      radius="md"
      size={400}
      centered
      closeOnClickOutside={false}
      data-testid="sandbox-checkout"
    >
      {options && (
        <>
          <Box className={classes.checkoutHeader} style={{ backgroundColor: options.theme.color }}>
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <ThemeIcon size={44} radius="md" color="white" variant="white" c={options.theme.color}>
                  <IconCreditCard size={24} />
                </ThemeIcon>
                <div style={{ minWidth: 0 }}>
                  {/* Modal.Title names the dialog (Mantine labels it by its title only). */}
                  <Modal.Title>
                    <Text component="span" fw={700} c="white" lineClamp={1}>
                      {options.name}
                    </Text>
                  </Modal.Title>
                  <Text size="xs" c="white" opacity={0.9} lineClamp={2}>
                    {options.description}
                  </Text>
                </div>
              </Group>
              <CloseButton
                variant="transparent"
                c="white"
                onClick={() => checkout?.callbacks.onClosed()}
                disabled={paying}
                aria-label={t('enroll.sandbox.close')}
                data-testid="sandbox-close"
              />
            </Group>
            <Text fz={28} fw={800} c="white" mt="md" data-testid="sandbox-amount">
              {formatPrice(options.amount, options.currency, i18n.language)}
            </Text>
          </Box>
          <Stack p="lg" gap="md">
            <Group justify="space-between">
              <Text size="sm" fw={600}>
                {t('enroll.sandbox.contact')}
              </Text>
              <Badge variant="light" color="orange" leftSection={<IconShieldCheck size={12} />}>
                {t('enroll.sandbox.badge')}
              </Badge>
            </Group>
            <ContactFields prefill={options.prefill} />
            <TextInput label={t('enroll.sandbox.card')} value="4111 1111 1111 1111" readOnly size="sm" leftSection={<IconCreditCard size={16} />} />
            <Text size="xs" c="dimmed">
              {t('enroll.sandbox.note', { order: options.order_id })}
            </Text>
            <Button
              size="md"
              fullWidth
              color={options.theme.color}
              loading={paying}
              leftSection={<IconLock size={16} />}
              onClick={pay}
              data-testid="sandbox-pay"
            >
              {t('enroll.sandbox.pay', { amount: formatPrice(options.amount, options.currency, i18n.language) })}
            </Button>
            <Divider label={t('enroll.sandbox.or')} labelPosition="center" />
            <Button variant="subtle" color="red" disabled={paying} onClick={decline} data-testid="sandbox-fail">
              {t('enroll.sandbox.fail')}
            </Button>
          </Stack>
        </>
      )}
    </Modal>
  );
}
