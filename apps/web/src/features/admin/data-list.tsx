// An admin list: a table on a wide screen, a stack of cards on a phone (each row a card whose lines
// are the columns, named), with its loading, empty and error states and a pager under it.
import type { ReactNode } from 'react';
import { Card, Group, Pagination, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMedia } from '../../lib/use-media';
import { useTranslation } from 'react-i18next';
import { messages } from '@mooz/contract/messages';
import { ListEmpty, ListError } from '../../components/list-states';
import { messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { pageSize } from './use-admin';

export interface Column<T> {
  key: string;
  header: string;
  cell: (row: T) => ReactNode;
}

interface DataListProps<T> {
  label: string;
  columns: Column<T>[];
  /** The last column: what can be done to the row. */
  actions?: (row: T) => ReactNode;
  rowKey: (row: T) => string | number;
  query: { data?: { data: { total: number; items: T[] } }; isPending: boolean; isError: boolean; error: unknown; isFetching: boolean; refetch: () => unknown };
  page: number;
  onPage: (page: number) => void;
  empty: { icon: ReactNode; title: string; description: string };
  errorTitle: string;
  testId: string;
}

export function DataList<T>({ label, columns, actions, rowKey, query, page, onPage, empty, errorTitle, testId }: DataListProps<T>) {
  const { t } = useTranslation();
  const phone = useMedia('(max-width: 47.99em)');

  if (query.isPending) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label={t('common.loading')} data-testid={`${testId}-loading`}>
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} height={phone ? 120 : 44} radius="md" />
        ))}
      </Stack>
    );
  }
  if (query.isError) {
    return (
      <ListError
        testId={`${testId}-error`}
        title={errorTitle}
        message={translateServerMessage(t, messageOf(query.error, messages.somethingWentWrong))}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  const { total, items } = query.data!.data;
  if (!items.length) return <ListEmpty testId={`${testId}-empty`} {...empty} />;

  const pages = Math.ceil(total / pageSize);
  return (
    <Stack gap="md" data-testid={testId} aria-busy={query.isFetching || undefined}>
      {phone ? (
        <Stack gap="sm" role="list" aria-label={label}>
          {items.map((row) => (
            <Card key={rowKey(row)} withBorder radius="md" p="md" role="listitem" data-testid={`${testId}-row`}>
              <Stack gap={6}>
                {columns.map((column) => (
                  <Group key={column.key} justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                    <Text size="xs" c="dimmed" fw={600} style={{ flexShrink: 0 }}>
                      {column.header}
                    </Text>
                    <div style={{ minWidth: 0, textAlign: 'end', overflowWrap: 'anywhere' }}>{column.cell(row)}</div>
                  </Group>
                ))}
                {actions && <Group justify="flex-end" mt={4}>{actions(row)}</Group>}
              </Stack>
            </Card>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={720} type="native">
          <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md" w="100%" aria-label={label}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => (
                  <Table.Th key={column.key} scope="col" ta="start">
                    {column.header}
                  </Table.Th>
                ))}
                {actions && (
                  <Table.Th scope="col" ta="end">
                    <VisuallyHidden>{t('admin.actions')}</VisuallyHidden>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((row) => (
                <Table.Tr key={rowKey(row)} data-testid={`${testId}-row`}>
                  {columns.map((column) => (
                    <Table.Td key={column.key}>{column.cell(row)}</Table.Td>
                  ))}
                  {actions && (
                    <Table.Td>
                      <Group justify="flex-end" gap="xs" wrap="nowrap">
                        {actions(row)}
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" c="dimmed" data-testid={`${testId}-total`}>
          {t('admin.total', { count: total })}
        </Text>
        {pages > 1 && (
          <Pagination
            total={pages}
            value={page}
            onChange={onPage}
            size="sm"
            getControlProps={(control) => ({ 'aria-label': t(`admin.pager.${control}`) })}
            getItemProps={(item) => ({ 'aria-label': t('admin.pager.page', { page: item }) })}
          />
        )}
      </Group>
    </Stack>
  );
}
