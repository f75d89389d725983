// Small pieces every assignment screen shows: a stored file's link, the due date with the time left,
// an answer's state, and the picker for one file (with the contract's size limit said up front).
import { useId, type ComponentPropsWithoutRef } from 'react';
import { Anchor, Badge, CloseButton, FileInput, Group, Text } from '@mantine/core';
import { IconCalendarDue, IconClockExclamation, IconFileDownload, IconPaperclip } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { assignmentLimits, type AttachedFile, type Submission } from '@mooz/contract/assignments';
import { isolate } from '../../lib/bidi';
import { formatBytes } from '../../lib/media-format';
import { acceptedFiles, fileProblem } from './assignment-forms';
import { dueState, formatDue, formatTimeLeft } from './due-date';

export function FileLink({ file, testId }: { file: AttachedFile; testId?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <Anchor
      href={file.url}
      download={file.name}
      size="sm"
      display="inline-flex"
      // The brand's text shade: the plain link colour is too faint on the nested cards of the dark skin.
      c="var(--mantine-color-mooz-text)"
      style={{ alignItems: 'center', gap: 6, overflowWrap: 'anywhere' }}
      aria-label={t('courseAssignments.downloadFile', {
        name: file.name,
        size: formatBytes(file.size_bytes, i18n.language),
      })}
      data-testid={testId}
    >
      <IconFileDownload size={16} aria-hidden="true" style={{ flex: 'none' }} />
      <span>{isolate(file.name)}</span>
      <Text span size="xs" c="dimmed">
        ({formatBytes(file.size_bytes, i18n.language)})
      </Text>
    </Anchor>
  );
}

/** "Due Mon 30 Nov, 18:00 GMT+1 · in 3 days", or "overdue", or "No due date". */
export function DueLine({ dueAt, done }: { dueAt: string | null; done?: boolean }) {
  const { t, i18n } = useTranslation();
  if (!dueAt) {
    return (
      <Text size="sm" c="dimmed" data-testid="assignment-due">
        {t('courseAssignments.noDueDate')}
      </Text>
    );
  }
  const state = dueState(dueAt);
  return (
    <Group gap="xs" wrap="wrap" data-testid="assignment-due">
      <Group gap={6} wrap="nowrap">
        <IconCalendarDue size={16} aria-hidden="true" style={{ flex: 'none' }} />
        <Text size="sm">{t('courseAssignments.due', { date: formatDue(dueAt, i18n.language) })}</Text>
      </Group>
      {!done &&
        (state.overdue ? (
          <Badge
            color="red"
            variant="light"
            leftSection={<IconClockExclamation size={12} aria-hidden="true" />}
            data-testid="assignment-overdue"
          >
            {t('courseAssignments.overdue')}
          </Badge>
        ) : (
          <Badge
            color={state.unit === 'day' ? 'mooz' : 'orange'}
            variant="light"
            tt="none"
            data-testid="assignment-time-left"
          >
            {t('courseAssignments.dueIn', { when: formatTimeLeft(state, i18n.language) })}
          </Badge>
        ))}
    </Group>
  );
}

export function SubmissionBadges({ submission }: { submission: Pick<Submission, 'status' | 'late'> }) {
  const { t } = useTranslation();
  return (
    <Group gap={6}>
      <Badge
        color={submission.status === 'reviewed' ? 'green' : 'blue'}
        variant="light"
        data-testid="submission-status"
      >
        {submission.status === 'reviewed'
          ? t('courseAssignments.status.reviewed')
          : t('courseAssignments.status.submitted')}
      </Badge>
      {submission.late && (
        <Badge color="orange" variant="outline" data-testid="submission-late">
          {t('courseAssignments.late')}
        </Badge>
      )}
    </Group>
  );
}

/** One file to send: chosen, cleared, and refused early when empty or too large. */
export function FilePick({
  label,
  value,
  onChange,
  disabled,
  testId,
}: {
  label: string;
  value: File | null;
  onChange(file: File | null): void;
  disabled?: boolean;
  testId?: string;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const problem = fileProblem(value);
  const limit = formatBytes(assignmentLimits.fileMaxBytes, i18n.language);
  return (
    <FileInput
      id={id}
      label={label}
      description={t('courseAssignments.file.hint', { size: limit })}
      placeholder={t('courseAssignments.file.choose')}
      value={value}
      onChange={onChange}
      accept={acceptedFiles}
      disabled={disabled}
      leftSection={<IconPaperclip size={16} aria-hidden="true" />}
      rightSection={
        value && !disabled ? (
          <CloseButton size="sm" aria-label={t('courseAssignments.file.clear')} onClick={() => onChange(null)} />
        ) : undefined
      }
      error={
        problem === 'fileTooLarge'
          ? t('courseAssignments.file.tooLarge', { size: limit })
          : problem === 'fileEmpty'
            ? t('courseAssignments.file.empty')
            : undefined
      }
      clearable={false}
      // Mantine's placeholder grey reads at 3.2:1 on a dark input; the dimmed text colour is readable in both skins.
      styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
      data-testid={testId}
      fileInputProps={{ 'data-testid': testId && `${testId}-input` } as ComponentPropsWithoutRef<'input'>}
    />
  );
}
