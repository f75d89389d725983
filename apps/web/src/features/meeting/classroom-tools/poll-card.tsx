// The room's poll over the stage: a student answers it once and sees the results when the host shows
// them; a host watches the answers come in, shows or hides the results, closes the poll, downloads
// every answer as CSV and asks the next question.
// Mantine's stylesheets of what only this card draws (the app loads them where they are used).
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/Radio.css';
import { useState } from 'react';
import { Badge, Button, Checkbox, CloseButton, Group, Paper, Progress, Radio, Stack, Text, Textarea } from '@mantine/core';
import { IconChartBar, IconCheck, IconDownload, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { classroomToolLimits, type PollView } from '@mooz/contract/classroom-tools';
import { amHost, useRoomControls } from '../services/room-controls';
import { answerPoll, closePoll, downloadPollAnswers, revealPoll, useClassroomTools } from './tools-link';
import { PollFormModal } from './poll-form';
import { clock, useSecondsLeft } from './seconds-left';
import classes from './classroom-tools.module.css';
import { numberFormat } from '../../../lib/intl';

function Answer({ poll }: { poll: PollView }) {
  const { t } = useTranslation();
  const [single, setSingle] = useState<string | null>(null);
  const [several, setSeveral] = useState<string[]>([]);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const choices = poll.kind === 'single' ? (single === null ? [] : [Number(single)]) : several.map(Number);
  const ready = poll.kind === 'text' ? text.trim().length > 0 : choices.length > 0;
  const send = async () => {
    setSending(true);
    try {
      await answerPoll(poll.id, poll.kind === 'text' ? { text } : { choices });
    } catch {
      // Refused: the reason was shown as a toast.
    } finally {
      setSending(false);
    }
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) void send();
      }}
    >
      <Stack gap="xs">
        {poll.kind === 'single' && (
          <Radio.Group value={single} onChange={setSingle} aria-label={poll.question}>
            <Stack gap={6}>
              {poll.options.map((option, index) => (
                <Radio key={index} value={String(index)} label={option} data-testid="poll-choice" />
              ))}
            </Stack>
          </Radio.Group>
        )}
        {poll.kind === 'multiple' && (
          <Checkbox.Group value={several} onChange={setSeveral} aria-label={poll.question} description={t('meeting.poll.chooseSeveral')}>
            <Stack gap={6} mt={4}>
              {poll.options.map((option, index) => (
                <Checkbox key={index} value={String(index)} label={option} data-testid="poll-choice" />
              ))}
            </Stack>
          </Checkbox.Group>
        )}
        {poll.kind === 'text' && (
          <Textarea
            aria-label={poll.question}
            placeholder={t('meeting.poll.yourAnswer')}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            maxLength={classroomToolLimits.pollTextAnswerMaxLength}
            autosize
            minRows={2}
            data-testid="poll-text-answer"
          />
        )}
        <Button type="submit" disabled={!ready} loading={sending} style={{ alignSelf: 'flex-end' }} data-testid="poll-submit">
          {t('meeting.poll.submit')}
        </Button>
      </Stack>
    </form>
  );
}

function Results({ poll }: { poll: PollView }) {
  const { t, i18n } = useTranslation();
  const results = poll.results!;
  const percent = numberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 });
  return (
    <Stack gap={8} data-testid="poll-results">
      <Text size="xs" c="dimmed">
        {t('meeting.poll.answered', { count: results.answered })}
      </Text>
      {poll.options.map((option, index) => {
        const count = results.counts[index] ?? 0;
        const share = results.answered ? count / results.answered : 0;
        const right = poll.correct?.includes(index);
        return (
          <div key={index} data-testid="poll-result" data-count={count}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm" fw={right ? 700 : 400} className={classes.pollQuestion}>
                {right && <IconCheck size={14} color="var(--mantine-color-green-filled)" aria-label={t('meeting.poll.right')} style={{ marginInlineEnd: 4 }} />}
                {option}
              </Text>
              <Text size="sm" c="dimmed" dir="ltr">
                {count} · {percent.format(share)}
              </Text>
            </Group>
            <Progress value={share * 100} color={right ? 'green' : 'mooz'} size="sm" aria-hidden />
          </div>
        );
      })}
      {results.answers.length > 0 && (
        <Stack gap={2} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="poll-answers">
          {results.answers.map((answer, index) => (
            <Text key={index} component="li" size="sm" dir="auto" className={classes.pollQuestion}>
              {answer.name && <strong>{answer.name}: </strong>}
              {poll.kind === 'text' ? answer.text : answer.choices.map((choice) => poll.options[choice]).join(', ')}
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

export function PollCard() {
  const poll = useClassroomTools((state) => state.poll);
  const hidden = useClassroomTools((state) => state.pollHidden);
  const host = amHost(useRoomControls((state) => state.controls));
  if (!poll || hidden) return null;
  return <Card poll={poll} host={host} />;
}

function Card({ poll, host }: { poll: PollView; host: boolean }) {
  const { t } = useTranslation();
  const left = useSecondsLeft(poll.closed ? null : poll.closesAt);
  const closed = poll.closed || left === 0;
  const mine = poll.mine;
  return (
    <Paper className={classes.pollCard} shadow="xl" radius="lg" withBorder p="md" role="region" aria-label={t('meeting.poll.title')} data-testid="poll-card" data-poll-id={poll.id}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={6} wrap="nowrap">
            <IconChartBar size={16} aria-hidden />
            <Text size="sm" fw={600}>
              {poll.graded ? t('meeting.poll.quiz') : t('meeting.poll.title')}
            </Text>
            {closed ? (
              <Badge size="sm" color="gray" data-testid="poll-closed">
                {t('meeting.poll.closed')}
              </Badge>
            ) : (
              left !== null && (
                <Badge size="sm" color="orange" variant="light" data-testid="poll-countdown">
                  <span dir="ltr">{clock(left)}</span>
                </Badge>
              )
            )}
            {!poll.anonymous && (
              <Badge size="sm" variant="light" color="gray">
                {t('meeting.poll.named')}
              </Badge>
            )}
          </Group>
          <CloseButton size="sm" onClick={() => useClassroomTools.setState({ pollHidden: true })} aria-label={t('meeting.poll.hide')} />
        </Group>
        <Text fw={600} className={classes.pollQuestion} dir="auto" data-testid="poll-question-text">
          {poll.question}
        </Text>
        {!host && !mine && !closed && <Answer poll={poll} />}
        {!host && mine && (
          <Text size="sm" c="dimmed" data-testid="poll-mine">
            {t('meeting.poll.yourAnswerWas', { answer: poll.kind === 'text' ? mine.text : mine.choices.map((choice) => poll.options[choice]).join(', ') })}
          </Text>
        )}
        {poll.results ? <Results poll={poll} /> : !host && (mine || closed) && <Text size="sm" c="dimmed">{t('meeting.poll.waitForResults')}</Text>}
        {host && (
          <Group gap="xs">
            <Button size="xs" variant="light" onClick={() => void revealPoll(poll.id, !poll.resultsShown)} data-testid="poll-reveal">
              {poll.resultsShown ? t('meeting.poll.hideResults') : t('meeting.poll.showResults')}
            </Button>
            {!closed && (
              <Button size="xs" variant="light" color="red" onClick={() => void closePoll(poll.id)} data-testid="poll-close">
                {t('meeting.poll.close')}
              </Button>
            )}
            <Button size="xs" variant="subtle" leftSection={<IconDownload size={14} />} onClick={downloadPollAnswers} data-testid="poll-download">
              {t('meeting.poll.download')}
            </Button>
            <Button size="xs" variant="subtle" leftSection={<IconPlus size={14} />} onClick={() => useClassroomTools.setState({ pollFormOpen: true })} data-testid="poll-new">
              {t('meeting.poll.new')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** The host's poll form, opened from the host menu or the poll card. */
export function PollFormHost() {
  const opened = useClassroomTools((state) => state.pollFormOpen);
  return <PollFormModal opened={opened} onClose={() => useClassroomTools.setState({ pollFormOpen: false })} />;
}
