// What the player page says of a recording under the video: its title, course and session, and
// when, how long, how large and by whom.
import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconCalendarEvent, IconClock, IconDatabase, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Recording } from '@mooz/contract/recordings';
import { formatBytes, formatDateTime, formatDuration } from '../../lib/media-format';
import classes from './recordings.module.css';

export function RecordingFacts({ recording }: { recording: Recording }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  // The course and the session, unless the title already names the session (an upload is named after it).
  const session = recording.session_title && !recording.title.includes(recording.session_title) ? recording.session_title : null;
  const context = [recording.course_name, session].filter(Boolean).join(' · ');

  return (
    <Card withBorder radius="lg" p="lg">
      <Stack gap="sm">
        <Title order={1} size="h3" className={classes.wrap} data-testid="recording-title">
          {recording.title}
        </Title>
        {context && (
          <Text c="mooz" fw={500} className={classes.wrap}>
            {context}
          </Text>
        )}
        <Group gap="lg" c="dimmed" className={classes.facts}>
          <Group gap={6} wrap="nowrap">
            <IconCalendarEvent size={16} aria-hidden="true" />
            <Text size="sm">{formatDateTime(recording.created_at, locale, true)}</Text>
          </Group>
          {recording.duration_seconds > 0 && (
            <Group gap={6} wrap="nowrap">
              <IconClock size={16} aria-hidden="true" />
              <Text size="sm">
                <span className="mooz-visually-hidden">{t('recordings.durationLabel')} </span>
                {formatDuration(recording.duration_seconds)}
              </Text>
            </Group>
          )}
          <Group gap={6} wrap="nowrap">
            <IconDatabase size={16} aria-hidden="true" />
            <Text size="sm">
              <span className="mooz-visually-hidden">{t('recordings.sizeLabel')} </span>
              {formatBytes(recording.size_bytes, locale)}
            </Text>
          </Group>
          <Group gap={6} wrap="nowrap">
            <IconUser size={16} aria-hidden="true" />
            <Text size="sm">{t('recordings.recordedBy', { name: recording.recorded_by_name })}</Text>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}
