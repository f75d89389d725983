// /admin/users: every account, found by name or email and narrowed by role and status; staff made
// here; deactivation (asked first: it signs the person out everywhere at once) and reactivation.
import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconUserOff, IconUserPlus, IconUsers, IconUserCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { accountStatuses, type AdminUser } from '@mooz/contract/admin';
import { userTypes } from '@mooz/contract/permissions';
import { PageHeader } from '../../components/list-states';
import { useStoredUser } from '../../lib/use-stored-auth';
import { ConfirmDialog } from './confirm-dialog';
import { CreateUserModal } from './create-user-modal';
import { DataList, type Column } from './data-list';
import { Filters, useListState } from './filters';
import { Person, RoleBadge, StatusBadge, useChoices, useFormatInstant } from './labels';
import { useAdminUsers, useDeactivateUser, useReactivateUser } from './use-admin';

export function AdminUsersPage() {
  const { t } = useTranslation();
  const me = useStoredUser();
  const list = useListState({ q: '', role: '', status: '' });
  const users = useAdminUsers(list.filters, list.page);
  const deactivate = useDeactivateUser();
  const reactivate = useReactivateUser();
  const [creating, setCreating] = useState(false);
  const [confirming, setConfirming] = useState<AdminUser | null>(null);
  const formatInstant = useFormatInstant();
  const choices = useChoices();

  const columns: Column<AdminUser>[] = [
    { key: 'person', header: t('admin.users.person'), cell: (u) => <Person name={`${u.first_name} ${u.last_name}`} email={u.email} /> },
    { key: 'role', header: t('admin.users.role'), cell: (u) => <RoleBadge role={u.user_type} /> },
    { key: 'status', header: t('admin.users.status'), cell: (u) => <StatusBadge kind="account" status={u.status} /> },
    { key: 'joined', header: t('admin.users.joined'), cell: (u) => formatInstant(u.date_joined) },
  ];

  const name = (u: AdminUser) => `${u.first_name} ${u.last_name}`;
  return (
    <div data-testid="admin-users-page">
      <PageHeader
        title={t('admin.users.title')}
        description={t('admin.users.subtitle')}
        actions={
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => setCreating(true)} data-testid="create-user">
            {t('admin.users.create.open')}
          </Button>
        }
      />
      <Filters
        search={list.filters.q}
        onSearch={(q) => list.set('q', q)}
        searchLabel={t('admin.users.search')}
        values={list.filters}
        onChoose={list.set}
        choices={[
          { name: 'role', label: t('admin.users.role'), options: choices('role', userTypes, 'admin.anyRole') },
          { name: 'status', label: t('admin.users.status'), options: choices('accountStatus', accountStatuses, 'admin.anyStatus') },
        ]}
      />
      <DataList
        label={t('admin.users.title')}
        testId="admin-users"
        query={users}
        columns={columns}
        rowKey={(u) => u.id}
        page={list.page}
        onPage={list.setPage}
        errorTitle={t('admin.users.error')}
        empty={{ icon: <IconUsers size={32} />, title: t('admin.users.empty.title'), description: t('admin.users.empty.description') }}
        actions={(u) =>
          u.id === me?.id ? null : u.status === 'deactivated' ? (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconUserCheck size={14} />}
              loading={reactivate.isPending && reactivate.variables === u.id}
              onClick={() => reactivate.mutate(u.id)}
              aria-label={t('admin.users.reactivateWho', { name: name(u) })}
              data-testid="reactivate-user"
            >
              {t('admin.users.reactivate')}
            </Button>
          ) : (
            <Button
              size="xs"
              variant="light"
              color="red"
              leftSection={<IconUserOff size={14} />}
              onClick={() => setConfirming(u)}
              aria-label={t('admin.users.deactivateWho', { name: name(u) })}
              data-testid="deactivate-user"
            >
              {t('admin.users.deactivate')}
            </Button>
          )
        }
      />
      <CreateUserModal opened={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        opened={confirming !== null}
        title={t('admin.users.confirm.title')}
        confirmLabel={t('admin.users.deactivate')}
        busy={deactivate.isPending}
        onClose={() => setConfirming(null)}
        onConfirm={() => deactivate.mutate(confirming!.id, { onSuccess: () => setConfirming(null) })}
      >
        {confirming && t('admin.users.confirm.body', { name: name(confirming), email: confirming.email })}
      </ConfirmDialog>
    </div>
  );
}
