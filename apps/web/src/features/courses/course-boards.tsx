// The course page's Boards tab: the whiteboards saved during the course's classes that the caller may
// see (GET /api/courses/{id}/whiteboards/; the server applies the sessions' rule), newest class first,
// each class's pages as pictures that open the full PNG (components/whiteboard-pages.tsx).
import { Card, Stack, Text, Title } from '@mantine/core';
import { IconChalkboard } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRoutes } from '@mooz/contract/api-routes';
import { messages } from '@mooz/contract/messages';
import { ListEmpty, ListError, ListLoading } from '../../components/list-states';
import { WhiteboardPages } from '../../components/whiteboard-pages';
import { call, messageOf } from '../../lib/api';
import { formatDateTime } from '../../lib/media-format';
import { translateServerMessage } from '../../lib/server-message';
import { courseKeys } from './use-courses';

export function CourseBoards({ courseId }: { courseId: number }) {
  const { t, i18n } = useTranslation();
  const boards = useQuery({
    queryKey: [...courseKeys.one(courseId), 'whiteboards'],
    queryFn: ({ signal }) => call(apiRoutes.sessions.courseWhiteboards, { params: { id: courseId }, signal }),
  });
  if (boards.isPending) return <ListLoading list count={2} testId="course-boards-loading" />;
  if (boards.isError) {
    return (
      <ListError
        title={t('courses.boards.errorTitle')}
        message={translateServerMessage(t, messageOf(boards.error, messages.unexpected))}
        onRetry={() => void boards.refetch()}
        retrying={boards.isFetching}
        testId="course-boards-error"
      />
    );
  }
  if (boards.data.data.length === 0) {
    return <ListEmpty icon={<IconChalkboard size={36} />} title={t('courses.boards.empty.title')} description={t('courses.boards.empty.description')} testId="course-boards-empty" />;
  }
  return (
    <Stack gap="lg" data-testid="course-boards">
      {boards.data.data.map((board) => {
        const headingId = `course-board-${board.room_id}`;
        // A breakout group's board is named after its class and its group.
        const name = board.group === null ? board.title : t('courses.boards.groupBoard', { title: board.title, group: board.group });
        return (
          <Card key={board.room_id} component="section" aria-labelledby={headingId} withBorder radius="lg" p="md" data-testid="course-board">
            <Stack gap="sm">
              <div>
                <Title order={2} size="h4" id={headingId} style={{ overflowWrap: 'anywhere' }}>
                  {name}
                </Title>
                <Text c="dimmed" size="sm">
                  {formatDateTime(board.starts_at, i18n.language)}
                </Text>
              </div>
              <WhiteboardPages roomId={board.room_id} pages={board.pages} compact pageName={(page) => t('courses.boards.pageOf', { page: page + 1, title: name })} />
            </Stack>
          </Card>
        );
      })}
    </Stack>
  );
}
