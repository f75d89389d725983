// The teacher's view of one assignment's answers: each answer (state, late, text, file) with a review
// form (a grade 0-100 and/or pass/fail, feedback), and the students who have not answered yet.
import { useState } from 'react';
import {
  Badge,
  Button,
  Card,
  Divider,
  Group,
  NumberInput,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { IconChecklist, IconUserQuestion } from '@tabler/icons-react';
import { useMedia } from '../../lib/use-media';
import { useTranslation } from 'react-i18next';
import { assignmentLimits, type Submission } from '@mooz/contract/assignments';
import { messages } from '@mooz/contract/messages';
import { ListEmpty, ListError, ListLoading } from '../../components/list-states';
import { messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { reviewBodyOf, reviewProblems, reviewValuesOf, type ReviewValues } from './assignment-forms';
import { FileLink, SubmissionBadges } from './assignment-bits';
import { formatMoment } from './due-date';
import { useReview, useSubmissions } from './use-assignments';

function ReviewForm({ assignmentId, submission }: { assignmentId: number; submission: Submission }) {
  const { t } = useTranslation();
  const review = useReview(assignmentId);
  const narrow = useMedia('(max-width: 36em)');
  const [values, setValues] = useState<ReviewValues>(() => reviewValuesOf(submission));
  const [tried, setTried] = useState(false);
  const problems = reviewProblems(values);
  const shown = tried
    ? problems
    : { ...problems, grade: problems.grade === 'gradeOrPass' ? undefined : problems.grade };
  const set = (patch: Partial<ReviewValues>) => setValues((current) => ({ ...current, ...patch }));

  return (
    <form
      noValidate
      aria-label={t('courseAssignments.review.formOf', { name: submission.student_name })}
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (Object.keys(problems).length) return;
        // Not mutate's own callbacks: the saved review remounts this form (its key), which would drop them.
        review.mutateAsync({ id: submission.id, body: reviewBodyOf(values) }).then(
          (response) => notify.success(translateServerMessage(t, response.message ?? messages.submissionReviewed)),
          (error: unknown) => notify.error(translateServerMessage(t, messageOf(error, messages.validationFailed))),
        );
      }}
      data-testid="review-form"
    >
      <Stack gap="sm">
        <Group align="flex-start" gap="md" wrap="wrap">
          <NumberInput
            label={t('courseAssignments.review.grade')}
            description={t('courseAssignments.review.gradeHint')}
            min={0}
            max={100}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            w={160}
            value={values.grade}
            onChange={(grade) => set({ grade })}
            error={
              shown.grade === 'gradeRange'
                ? t('courseAssignments.review.gradeRange')
                : shown.grade === 'gradeOrPass'
                  ? t('courseAssignments.review.gradeOrPass')
                  : undefined
            }
            data-testid="review-grade"
          />
          <Stack gap={4} w={narrow ? '100%' : undefined}>
            <Text size="sm" fw={500} id={`pass-${submission.id}`}>
              {t('courseAssignments.review.result')}
            </Text>
            <SegmentedControl
              // Three words side by side outgrow a phone's card in German: stacked there.
              orientation={narrow ? 'vertical' : 'horizontal'}
              fullWidth={narrow}
              aria-labelledby={`pass-${submission.id}`}
              value={values.passed}
              onChange={(passed) => set({ passed: passed as ReviewValues['passed'] })}
              data={[
                { value: 'none', label: t('courseAssignments.review.noResult') },
                { value: 'pass', label: t('courseAssignments.review.pass') },
                { value: 'fail', label: t('courseAssignments.review.fail') },
              ]}
              data-testid="review-passed"
            />
          </Stack>
        </Group>
        <Textarea
          label={t('courseAssignments.review.feedback')}
          autosize
          minRows={2}
          maxRows={8}
          value={values.feedback}
          onChange={(event) => set({ feedback: event.currentTarget.value })}
          error={
            shown.feedback
              ? t('courseAssignments.review.feedbackTooLong', { max: assignmentLimits.feedbackMaxLength })
              : undefined
          }
          dir="auto"
          data-testid="review-feedback"
        />
        <Group justify="flex-end">
          <Button
            type="submit"
            loading={review.isPending}
            leftSection={<IconChecklist size={16} />}
            data-testid="review-save"
          >
            {submission.status === 'reviewed'
              ? t('courseAssignments.review.update')
              : t('courseAssignments.review.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SubmissionCard({ assignmentId, submission }: { assignmentId: number; submission: Submission }) {
  const { t, i18n } = useTranslation();
  return (
    <Card withBorder radius="md" p="md" data-testid="submission" data-student={submission.student_name}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {submission.student_name}
          </Text>
          <SubmissionBadges submission={submission} />
        </Group>
        <Text size="xs" c="dimmed">
          {t('courseAssignments.submittedAt', { date: formatMoment(submission.submitted_at, i18n.language) })}
        </Text>
        {submission.text ? (
          <Text
            size="sm"
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            dir="auto"
            data-testid="submission-text"
          >
            {submission.text}
          </Text>
        ) : (
          <Text size="sm" c="dimmed" fs="italic">
            {t('courseAssignments.noText')}
          </Text>
        )}
        {submission.file && <FileLink file={submission.file} testId="submission-file" />}
        <Divider />
        <ReviewForm
          key={`${submission.id}-${submission.reviewed_at ?? ''}`}
          assignmentId={assignmentId}
          submission={submission}
        />
      </Stack>
    </Card>
  );
}

export function SubmissionsPanel({ assignmentId }: { assignmentId: number }) {
  const { t } = useTranslation();
  const query = useSubmissions(assignmentId, true);
  if (query.isPending) return <ListLoading count={1} height={160} list testId="submissions-loading" />;
  if (query.isError) {
    return (
      <ListError
        testId="submissions-error"
        title={t('courseAssignments.submissionsError')}
        message={translateServerMessage(t, messageOf(query.error, messages.unexpected))}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  const { submissions, missing } = query.data.data;
  return (
    <Stack gap="md" data-testid="submissions-panel">
      <Title order={3} size="h5">
        {t('courseAssignments.answers', { count: submissions.length })}
      </Title>
      {submissions.length === 0 ? (
        <ListEmpty
          testId="submissions-empty"
          icon={<IconChecklist size={32} />}
          title={t('courseAssignments.noAnswers.title')}
          description={t('courseAssignments.noAnswers.description')}
        />
      ) : (
        submissions.map((submission) => (
          <SubmissionCard key={submission.id} assignmentId={assignmentId} submission={submission} />
        ))
      )}
      <Title order={3} size="h5">
        {t('courseAssignments.missing', { count: missing.length })}
      </Title>
      {missing.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('courseAssignments.noneMissing')}
        </Text>
      ) : (
        <Group gap="xs" data-testid="submissions-missing">
          {missing.map((student) => (
            <Badge
              key={student.student_id}
              variant="default"
              tt="none"
              leftSection={<IconUserQuestion size={12} aria-hidden="true" />}
            >
              {student.student_name}
            </Badge>
          ))}
        </Group>
      )}
    </Stack>
  );
}
