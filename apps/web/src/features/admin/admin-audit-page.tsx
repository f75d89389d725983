// /admin/audit: every admin action, newest first: who did what to which thing, and when.
import { useState } from 'react';
import { Code, Text } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '@mooz/contract/admin';
import { PageHeader } from '../../components/list-states';
import { DataList, type Column } from './data-list';
import { Person, useFormatInstant } from './labels';
import { useAuditLog } from './use-admin';

/** What the details say, in one line ("email: a@b.c · amount: 250000"). */
const detailsLine = (details: AuditEntry['details']) =>
  Object.entries(details)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(' · ');

export function AdminAuditPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const log = useAuditLog(page);
  const formatInstant = useFormatInstant();

  const columns: Column<AuditEntry>[] = [
    { key: 'when', header: t('admin.audit.when'), cell: (e) => <Text size="sm">{formatInstant(e.created_at)}</Text> },
    { key: 'who', header: t('admin.audit.who'), cell: (e) => <Person name={e.actor.name} email={e.actor.email} /> },
    // Actions of other modules may be new to this page: their name is shown as it is.
    { key: 'what', header: t('admin.audit.what'), cell: (e) => <Text size="sm">{t(`admin.auditAction.${e.action}`, { defaultValue: e.action })}</Text> },
    { key: 'target', header: t('admin.audit.target'), cell: (e) => <Code style={{ whiteSpace: 'nowrap' }}>{`${e.target_type} ${e.target_id}`}</Code> },
    { key: 'details', header: t('admin.audit.details'), cell: (e) => <Text size="xs" c="dimmed" maw={340} style={{ overflowWrap: 'anywhere' }}>{detailsLine(e.details) || '—'}</Text> },
  ];

  return (
    <div data-testid="admin-audit-page">
      <PageHeader title={t('admin.audit.title')} description={t('admin.audit.subtitle')} />
      <DataList
        label={t('admin.audit.title')}
        testId="admin-audit"
        query={log}
        columns={columns}
        rowKey={(e) => e.id}
        page={page}
        onPage={setPage}
        errorTitle={t('admin.audit.error')}
        empty={{ icon: <IconHistory size={32} />, title: t('admin.audit.empty.title'), description: t('admin.audit.empty.description') }}
      />
    </div>
  );
}
