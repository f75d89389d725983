// The batches of a course, for whoever may change the course: each batch's kind, dates, meeting days
// and times (in the course's zone, and in the viewer's when their clock reads otherwise), seats sold,
// session length and status, with its actions; and "Open a batch". A table on a wide screen, a card
// per batch on a phone.
import '../../styles/mantine-more';
// Not in the shared set: tables, progress bars and radio buttons are shown by few screens.
import '@mantine/core/styles/Table.css';
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/Radio.css';
import { useState, type ReactNode } from 'react';
import { subject } from '@casl/ability';
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useMedia } from '../../lib/use-media';
import { IconCalendarPlus, IconCalendarOff, IconTrash, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Batch } from '@mooz/contract/batches';
import type { Course } from '@mooz/contract/courses';
import { ListEmpty } from '../../components/list-states';
import { useAbility } from '../../lib/ability';
import { isolate } from '../../lib/bidi';
import { formatDate } from '../../lib/format';
import { ChangeSeatsDialog, RemoveBatchDialog, seatsSold, type BatchDialogProps } from './batch-actions';
import { describeSchedule, sameClocks } from './batch-schedule';
import { OpenBatchModal } from './open-batch-modal';
import { useCourse } from './use-courses';
import { useMeetingCapacity } from '../../lib/meeting-capacity';

type Status = 'started' | 'soldOut' | 'open';
const statusOf = (batch: Batch): Status => (batch.started ? 'started' : batch.sold_out ? 'soldOut' : 'open');
const statusColor: Record<Status, string> = { started: 'gray', soldOut: 'red', open: 'green' };

interface Column {
  key: string;
  header: string;
  cell(batch: Batch): ReactNode;
}

function useColumns(): Column[] {
  const { maxCapacity } = useMeetingCapacity();
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return [
    {
      key: 'kind',
      header: t('batches.column.kind'),
      cell: (batch) => <Text fw={600}>{t(`batches.kind.${batch.kind}`)}</Text>,
    },
    {
      key: 'dates',
      header: t('batches.column.dates'),
      cell: (batch) => (
        <Text size="sm">
          {isolate(`${formatDate(batch.start_date, locale)} – ${formatDate(batch.end_date, locale)}`)}
        </Text>
      ),
    },
    {
      key: 'meets',
      header: t('batches.column.meets'),
      cell: (batch) => (
        <Stack gap={2}>
          <Text size="sm" data-testid="batch-meets">
            {describeSchedule(batch, locale, batch.time_zone)}
          </Text>
          {!sameClocks(batch, locale) && (
            <Text size="xs" c="dimmed" data-testid="batch-meets-yours">
              {t('batches.yourTime', { schedule: describeSchedule(batch, locale) })}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'seats',
      header: t('batches.column.seats'),
      cell: (batch) => {
        const sold = seatsSold(batch);
        return (
          <Stack gap={4} miw={96}>
            <Text size="sm" data-testid="batch-seats-sold">
              {t('batches.seatsSold', { sold, capacity: batch.capacity })}
            </Text>
            <Progress
              value={batch.capacity ? (sold / batch.capacity) * 100 : 0}
              size="sm"
              color={batch.sold_out ? 'red' : undefined}
              aria-label={t('batches.seatsSoldLabel', { sold, capacity: batch.capacity })}
            />
            {/* A class holds the batch and its teacher: more than this server's rooms hold needs the SFU. */}
            {batch.capacity + 1 > maxCapacity && (
              <Text size="xs" c="orange.9" data-testid="batch-needs-sfu">
                {t('batches.needsSfu', { max: maxCapacity })}
              </Text>
            )}
          </Stack>
        );
      },
    },
    {
      key: 'session',
      header: t('batches.column.session'),
      cell: (batch) => <Text size="sm">{t('batches.minutes', { count: batch.session_minutes })}</Text>,
    },
    {
      key: 'status',
      header: t('batches.column.status'),
      cell: (batch) => (
        <Badge
          // Never cut to "OP…" by a narrow column.
          miw="max-content"
          variant="light"
          color={statusColor[statusOf(batch)]}
          data-testid="batch-status"
          data-status={statusOf(batch)}
        >
          {t(`batches.status.${statusOf(batch)}`)}
        </Badge>
      ),
    },
  ];
}

/** The batch a dialog is about; kept after the dialog closes so it can close with its content. */
type Editing = { batch: Batch; action: 'seats' | 'remove'; shown: boolean; key: number } | null;

function BatchActions({
  batch,
  name,
  onEdit,
}: {
  batch: Batch;
  name: string;
  onEdit(batch: Batch, action: 'seats' | 'remove'): void;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap" justify="flex-end">
      <Button
        size="xs"
        variant="light"
        leftSection={<IconUsers size={14} />}
        onClick={() => onEdit(batch, 'seats')}
        aria-label={t('batches.seats.action', { name })}
        data-testid="batch-change-seats"
      >
        {t('batches.seats.short')}
      </Button>
      {seatsSold(batch) === 0 && (
        <Tooltip label={t('batches.remove.action', { name })}>
          <ActionIcon
            size={30}
            variant="light"
            color="red"
            onClick={() => onEdit(batch, 'remove')}
            aria-label={t('batches.remove.action', { name })}
            data-testid="batch-remove"
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

/** The dialog of the action chosen for a batch. */
function EditingDialog({ action, ...props }: BatchDialogProps & { action: 'seats' | 'remove' }) {
  return action === 'seats' ? <ChangeSeatsDialog {...props} /> : <RemoveBatchDialog {...props} />;
}

export function CourseBatchesPanel({ course, refreshing }: { course: Course; refreshing?: boolean }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const phone = useMedia('(max-width: 47.99em)');
  const columns = useColumns();
  const [opening, setOpening] = useState(false);
  const [editing, setEditing] = useState<Editing>(null);
  const edit = (batch: Batch, action: 'seats' | 'remove') =>
    setEditing((last) => ({ batch, action, shown: true, key: (last?.key ?? 0) + 1 }));
  const closeDialog = () => setEditing((last) => last && { ...last, shown: false });
  const nameOf = (batch: Batch) => t(`batches.name.${batch.kind}`, { date: formatDate(batch.start_date, locale) });
  const rowProps = (batch: Batch) => ({
    'data-testid': 'batch-row',
    'data-batch-id': batch.id,
    'data-kind': batch.kind,
    'data-start': batch.start_date,
  });

  const list = phone ? (
    <Stack gap="sm" role="list" aria-labelledby="batches-heading">
      {course.batches.map((batch) => (
        <Card key={batch.id} withBorder radius="md" p="md" role="listitem" {...rowProps(batch)}>
          <Stack gap={6}>
            {/* Each line names its column, as the table's header would. */}
            <SimpleGrid cols={2} spacing="md" verticalSpacing={6} style={{ gridTemplateColumns: 'max-content 1fr' }}>
              {columns.flatMap((column) => [
                <Text key={`${column.key}-label`} size="xs" c="dimmed" fw={600}>
                  {column.header}
                </Text>,
                <div key={column.key}>{column.cell(batch)}</div>,
              ])}
            </SimpleGrid>
            <BatchActions batch={batch} name={nameOf(batch)} onEdit={edit} />
          </Stack>
        </Card>
      ))}
    </Stack>
  ) : (
    <Table.ScrollContainer minWidth={760}>
      <Table
        verticalSpacing="sm"
        highlightOnHover
        withTableBorder
        aria-labelledby="batches-heading"
        data-testid="batches-table"
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key}>{column.header}</Table.Th>
            ))}
            <Table.Th>
              <VisuallyHidden>{t('batches.column.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {course.batches.map((batch) => (
            <Table.Tr key={batch.id} {...rowProps(batch)}>
              {columns.map((column) => (
                <Table.Td key={column.key} style={{ verticalAlign: 'top' }}>
                  {column.cell(batch)}
                </Table.Td>
              ))}
              <Table.Td style={{ verticalAlign: 'top' }}>
                <BatchActions batch={batch} name={nameOf(batch)} onEdit={edit} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );

  return (
    <Card
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      mt="lg"
      withBorder
      data-testid="batches-panel"
      aria-busy={refreshing || undefined}
    >
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" gap="sm">
          <div>
            <Title order={2} size="h3" id="batches-heading">
              {t('batches.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('batches.subtitle', { zone: course.time_zone })}
            </Text>
          </div>
          <Button
            leftSection={<IconCalendarPlus size={16} />}
            onClick={() => setOpening(true)}
            data-testid="open-batch"
          >
            {t('batches.open.action')}
          </Button>
        </Group>
        {course.batches.length ? (
          list
        ) : (
          <ListEmpty
            testId="batches-empty"
            icon={<IconCalendarOff size={36} />}
            title={t('batches.empty.title')}
            description={t('batches.empty.description')}
          />
        )}
      </Stack>
      <OpenBatchModal course={course} opened={opening} onClose={() => setOpening(false)} />
      {editing && (
        <EditingDialog
          key={editing.key}
          action={editing.action}
          opened={editing.shown}
          courseId={course.id}
          batch={editing.batch}
          name={nameOf(editing.batch)}
          onClose={closeDialog}
        />
      )}
    </Card>
  );
}

/** The panel under a course's details, for whoever may change the course (the rules decide, not the role). */
export function CourseBatches({ id }: { id: number }) {
  const ability = useAbility();
  // The same query as the details above (react-query shares it), whose loading and error states stand for both.
  const course = useCourse(id);
  const details = course.data?.data;
  if (!details || !ability.can('update', subject('Course', { teacher_id: details.teacher.id }) as never)) return null;
  return <CourseBatchesPanel course={details} refreshing={course.isFetching} />;
}
