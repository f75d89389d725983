// The course page's "Assignments" tab. The course's teacher (and admins) create, edit and delete
// assignments and open each one's answers to review them; a student sees each assignment with its due
// date in their own time zone, answers it, and reads the grade and feedback once it is reviewed.
// What people wrote (titles, instructions, answers, feedback) keeps its own direction (dir="auto").
import { useState } from 'react';
import { Badge, Button, Card, Collapse, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconClipboardList, IconEdit, IconPlus, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Assignment, Submission } from '@mooz/contract/assignments';
import { messages } from '@mooz/contract/messages';
import { CancelButton, DeleteButton } from '../../components/buttons';
import { ListEmpty, ListError, ListLoading } from '../../components/list-states';
import { messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { AnswerModal } from './answer-modal';
import { AssignmentEditorModal } from './assignment-editor-modal';
import { DueLine, FileLink, SubmissionBadges } from './assignment-bits';
import { formatMoment } from './due-date';
import { SubmissionsPanel } from './submissions-panel';
import { useCourseAssignments, useDeleteAssignment } from './use-assignments';

function MyAnswer({ submission }: { submission: Submission }) {
  const { t, i18n } = useTranslation();
  const reviewed = submission.status === 'reviewed';
  return (
    <Card withBorder radius="md" p="md" data-testid="my-submission">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text fw={600}>{t('courseAssignments.yourAnswer')}</Text>
          <SubmissionBadges submission={submission} />
        </Group>
        <Text size="xs" c="dimmed">
          {t('courseAssignments.submittedAt', { date: formatMoment(submission.submitted_at, i18n.language) })}
        </Text>
        {submission.text && (
          <Text
            size="sm"
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            dir="auto"
            data-testid="my-submission-text"
          >
            {submission.text}
          </Text>
        )}
        {submission.file && <FileLink file={submission.file} testId="my-submission-file" />}
        {reviewed && (
          <Stack gap={6} mt="xs" data-testid="my-review">
            <Group gap="xs">
              <Text size="sm" fw={600}>
                {t('courseAssignments.review.title')}
              </Text>
              {submission.grade !== null && (
                <Badge size="lg" variant="filled" data-testid="my-grade">
                  {t('courseAssignments.review.gradeOf', { grade: submission.grade })}
                </Badge>
              )}
              {submission.passed !== null && (
                <Badge size="lg" variant="light" color={submission.passed ? 'green' : 'red'} data-testid="my-passed">
                  {submission.passed ? t('courseAssignments.review.pass') : t('courseAssignments.review.fail')}
                </Badge>
              )}
            </Group>
            {submission.feedback && (
              <Text
                size="sm"
                style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                dir="auto"
                data-testid="my-feedback"
              >
                {submission.feedback}
              </Text>
            )}
            {submission.reviewed_at && (
              <Text size="xs" c="dimmed">
                {t('courseAssignments.reviewedAt', { date: formatMoment(submission.reviewed_at, i18n.language) })}
              </Text>
            )}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

function DeleteAssignment({ assignment, onClose }: { assignment: Assignment; onClose(): void }) {
  const { t } = useTranslation();
  const remove = useDeleteAssignment();
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('courseAssignments.delete.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      centered
      radius="lg"
      data-testid="assignment-delete"
    >
      <Stack gap="md">
        <Text>{t('courseAssignments.delete.body', { title: assignment.title })}</Text>
        <Group justify="flex-end" gap="sm">
          <CancelButton onClick={onClose} data-autofocus />
          <DeleteButton
            loading={remove.isPending}
            onClick={() =>
              remove.mutateAsync(assignment.id).then(
                (response) => {
                  notify.success(translateServerMessage(t, response.message ?? messages.assignmentDeleted));
                  onClose();
                },
                (error: unknown) => notify.error(translateServerMessage(t, messageOf(error, messages.unexpected))),
              )
            }
            data-testid="assignment-delete-confirm"
          >
            {t('courseAssignments.delete.confirm')}
          </DeleteButton>
        </Group>
      </Stack>
    </Modal>
  );
}

function AssignmentCard({
  assignment,
  canAnswer,
  onEdit,
  onDelete,
  onAnswer,
}: {
  assignment: Assignment;
  canAnswer: boolean;
  onEdit(): void;
  onDelete(): void;
  onAnswer(): void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const mine = assignment.my_submission;
  const panelId = `assignment-${assignment.id}-answers`;
  return (
    <Card
      withBorder
      radius="lg"
      p="lg"
      component="article"
      aria-labelledby={`assignment-${assignment.id}-title`}
      data-testid="assignment-card"
      data-assignment-id={assignment.id}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
          <Title
            order={2}
            size="h4"
            id={`assignment-${assignment.id}-title`}
            style={{ overflowWrap: 'anywhere' }}
            dir="auto"
            data-testid="assignment-title-text"
          >
            {assignment.title}
          </Title>
          {assignment.can_manage && (
            <Group gap="xs">
              <Button
                size="xs"
                variant="light"
                leftSection={<IconEdit size={14} />}
                onClick={onEdit}
                aria-label={t('courseAssignments.editNamed', { title: assignment.title })}
                data-testid="assignment-edit"
              >
                {t('courseAssignments.edit')}
              </Button>
              <DeleteButton
                size="xs"
                variant="subtle"
                onClick={onDelete}
                aria-label={t('courseAssignments.deleteNamed', { title: assignment.title })}
                data-testid="assignment-delete-button"
              >
                {t('courseAssignments.delete.action')}
              </DeleteButton>
            </Group>
          )}
        </Group>
        <DueLine dueAt={assignment.due_at} done={Boolean(mine) || assignment.can_manage} />
        {assignment.instructions && (
          <Text
            size="sm"
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            dir="auto"
            data-testid="assignment-instructions-text"
          >
            {assignment.instructions}
          </Text>
        )}
        {assignment.attachment && <FileLink file={assignment.attachment} testId="assignment-attachment" />}
        {assignment.can_manage ? (
          <>
            <Group justify="space-between" gap="sm" wrap="wrap">
              <Group gap="xs">
                <Badge variant="light" tt="none" data-testid="assignment-submitted-count">
                  {t('courseAssignments.submittedCount', { count: assignment.submissions_count ?? 0 })}
                </Badge>
                <Badge
                  variant="light"
                  color={assignment.waiting_review_count ? 'orange' : 'gray'}
                  tt="none"
                  data-testid="assignment-waiting-count"
                >
                  {t('courseAssignments.waitingCount', { count: assignment.waiting_review_count ?? 0 })}
                </Badge>
              </Group>
              <Button
                size="sm"
                variant="default"
                rightSection={open ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
                onClick={() => setOpen((value) => !value)}
                aria-expanded={open}
                aria-controls={panelId}
                data-testid="assignment-answers-toggle"
              >
                {open ? t('courseAssignments.hideAnswers') : t('courseAssignments.showAnswers')}
              </Button>
            </Group>
            <Collapse in={open} id={panelId}>
              {open && <SubmissionsPanel assignmentId={assignment.id} />}
            </Collapse>
          </>
        ) : mine ? (
          <>
            <MyAnswer submission={mine} />
            {mine.status !== 'reviewed' && canAnswer && (
              <Group>
                <Button
                  variant="light"
                  leftSection={<IconSend size={16} />}
                  onClick={onAnswer}
                  data-testid="answer-open"
                >
                  {t('courseAssignments.answer.replace')}
                </Button>
              </Group>
            )}
          </>
        ) : canAnswer ? (
          <Group>
            <Button leftSection={<IconSend size={16} />} onClick={onAnswer} data-testid="answer-open">
              {t('courseAssignments.answer.open')}
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed" data-testid="answer-enroll-first">
            {t('courseAssignments.answer.enrollFirst')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

type Dialog =
  | { kind: 'edit'; assignment: Assignment | null }
  | { kind: 'delete'; assignment: Assignment }
  | { kind: 'answer'; assignment: Assignment }
  | null;

export function AssignmentsTab({
  courseId,
  canCreate,
  canAnswer,
}: {
  courseId: number;
  canCreate: boolean;
  canAnswer: boolean;
}) {
  const { t } = useTranslation();
  const query = useCourseAssignments(courseId);
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);

  return (
    <Stack gap="md" data-testid="assignments-tab">
      <Group justify="space-between" align="center" gap="sm" wrap="wrap">
        <Text c="dimmed" size="sm" maw={560}>
          {canCreate ? t('courseAssignments.teacherIntro') : t('courseAssignments.studentIntro')}
        </Text>
        {canCreate && (
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => setDialog({ kind: 'edit', assignment: null })}
            data-testid="assignment-new"
          >
            {t('courseAssignments.new')}
          </Button>
        )}
      </Group>
      {query.isPending ? (
        <ListLoading testId="assignments-loading" count={2} height={160} list />
      ) : query.isError ? (
        <ListError
          testId="assignments-error"
          title={t('courseAssignments.loadFailed')}
          message={translateServerMessage(t, messageOf(query.error, messages.unexpected))}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : query.data.data.length === 0 ? (
        <ListEmpty
          testId="assignments-empty"
          icon={<IconClipboardList size={36} />}
          title={t('courseAssignments.empty.title')}
          description={canCreate ? t('courseAssignments.empty.teacher') : t('courseAssignments.empty.student')}
        />
      ) : (
        query.data.data.map((assignment) => (
          <AssignmentCard
            key={assignment.id}
            assignment={assignment}
            canAnswer={canAnswer}
            onEdit={() => setDialog({ kind: 'edit', assignment })}
            onDelete={() => setDialog({ kind: 'delete', assignment })}
            onAnswer={() => setDialog({ kind: 'answer', assignment })}
          />
        ))
      )}
      {dialog?.kind === 'edit' && (
        <AssignmentEditorModal courseId={courseId} assignment={dialog.assignment} onClose={close} />
      )}
      {dialog?.kind === 'delete' && <DeleteAssignment assignment={dialog.assignment} onClose={close} />}
      {dialog?.kind === 'answer' && <AnswerModal assignment={dialog.assignment} onClose={close} />}
    </Stack>
  );
}
