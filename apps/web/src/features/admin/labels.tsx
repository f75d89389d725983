// The words and badges the admin pages share: roles, account and payment states, people, money, dates.
import { Badge, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AccountStatus, PaymentStatus } from '@mooz/contract/admin';
import type { UserType } from '@mooz/contract/permissions';
import { dateTimeFormat } from '../../lib/intl';

// Filled, in shades whose text (picked by autoContrast) reads at 4.5:1 on them, in light and dark skins.
const statusColor: Record<AccountStatus | PaymentStatus, string> = {
  active: 'teal.9',
  deactivated: 'red.9',
  unverified: 'gray.7',
  created: 'yellow.4',
  failed: 'red.9',
  abandoned: 'gray.7',
  paid: 'teal.9',
  refunded: 'grape.9',
};

export function StatusBadge({ status, kind }: { status: AccountStatus | PaymentStatus; kind: 'account' | 'payment' }) {
  const { t } = useTranslation();
  return (
    <Badge variant="filled" autoContrast color={statusColor[status]} data-testid={`status-${status}`}>
      {t(`admin.${kind}Status.${status}`)}
    </Badge>
  );
}

export function RoleBadge({ role }: { role: UserType }) {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" color={role === 'admin' ? 'red' : role === 'teacher' ? 'mooz' : 'gray'}>
      {t(`admin.role.${role}`)}
    </Badge>
  );
}

/** A person as two lines: name, then email. */
export function Person({ name, email }: { name: string; email: string }) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={500}>
        {name}
      </Text>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {email}
      </Text>
    </Stack>
  );
}

/** An instant (ISO) as a date and time in the user's language and zone. */
export function useFormatInstant() {
  const { i18n } = useTranslation();
  return (iso: string | null) => (iso ? dateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)) : '—');
}

/** The "any" choice and one choice per value, labelled by `admin.{prefix}.{value}`. */
export function useChoices() {
  const { t } = useTranslation();
  return (prefix: string, values: readonly string[], anyKey: string) => [
    { value: '', label: t(anyKey) },
    ...values.map((value) => ({ value, label: t(`admin.${prefix}.${value}`) })),
  ];
}
