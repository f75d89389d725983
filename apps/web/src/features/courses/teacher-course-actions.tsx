// What a teacher does with a course from its card in "My courses": edit it, see its students, publish
// or unpublish it, and remove it. Removal asks first, saying whether the course will be deleted (nobody
// bought it) or archived (kept for the students who did), as the server will decide.
import { useState } from 'react';
import { ActionIcon, Button, Group, Menu, Modal, Skeleton, Stack, Text } from '@mantine/core';
import { IconArchive, IconDots, IconEye, IconEyeOff, IconPencil, IconTrash, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Course } from '@mooz/contract/courses';
import { messages } from '@mooz/contract/messages';
import { CancelButton } from '../../components/buttons';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { useRemovalOutcome, useRemoveCourse, useSetPublished } from './use-teaching';

function RemoveCourseDialog({ course, opened, onClose }: { course: Course; opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const outcome = useRemovalOutcome(course.id, opened);
  const remove = useRemoveCourse();
  const archives = outcome.data?.data.outcome === 'archived';
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('teach.remove.title', { name: course.name })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      centered
      data-testid="remove-course-dialog"
    >
      <Stack gap="md">
        {outcome.isPending ? (
          <Skeleton height={48} aria-label={t('common.loading')} />
        ) : outcome.isError ? (
          <Text c="red">{translateServerMessage(t, messageOf(outcome.error, messages.unexpected))}</Text>
        ) : (
          <Text data-testid="remove-course-outcome" data-outcome={outcome.data.data.outcome}>
            {archives ? t('teach.remove.archiveText') : t('teach.remove.deleteText')}
          </Text>
        )}
        <Group justify="flex-end">
          <CancelButton onClick={onClose} />
          <Button
            color="red"
            leftSection={archives ? <IconArchive size={16} /> : <IconTrash size={16} />}
            disabled={!outcome.isSuccess}
            loading={remove.isPending}
            onClick={() =>
              remove.mutate(course.id, {
                onSuccess: (response) => {
                  notify.success(translateServerMessage(t, response.message ?? messages.courseDeleted));
                  onClose();
                },
                onError: (error) => notify.error(translateServerMessage(t, messageOf(error, messages.unexpected))),
              })
            }
            data-testid="remove-course-confirm"
          >
            {archives ? t('teach.remove.archive') : t('teach.remove.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function TeacherCourseActions({ course }: { course: Course }) {
  const { t } = useTranslation();
  const [removing, setRemoving] = useState(false);
  const setPublished = useSetPublished();
  const togglePublished = () =>
    setPublished.mutate(
      { id: course.id, published: !course.published },
      {
        onSuccess: () => notify.success(course.published ? t('teach.unpublished', { name: course.name }) : t('teach.publishedNow', { name: course.name })),
        onError: (error) => notify.error(translateServerMessage(t, messageOf(error, messages.unexpected))),
      },
    );
  return (
    <Group gap="xs" wrap="nowrap">
      <Button variant="light" component={Link} to={paths.editCourse(course.id)} leftSection={<IconPencil size={16} />} flex={1}>
        {t('teach.edit')}
      </Button>
      <Button variant="light" component={Link} to={paths.courseStudents(course.id)} leftSection={<IconUsers size={16} />} flex={1} data-testid="course-students-link">
        {t('teach.students')}
      </Button>
      {!course.archived_at && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="light" size={36} aria-label={t('teach.moreActions', { name: course.name })} data-testid="course-more-actions">
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={course.published ? <IconEyeOff size={16} /> : <IconEye size={16} />} onClick={togglePublished} data-testid="toggle-published">
              {course.published ? t('teach.unpublish') : t('teach.publish')}
            </Menu.Item>
            <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => setRemoving(true)} data-testid="remove-course">
              {t('teach.remove.action')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
      <RemoveCourseDialog course={course} opened={removing} onClose={() => setRemoving(false)} />
    </Group>
  );
}
