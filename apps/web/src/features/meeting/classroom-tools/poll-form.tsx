// The host's new poll: a question, single or multiple choice (2–6 answers) or a short free text,
// optionally timed, anonymous or named, and (choices) graded with its right answers marked.
import '@mantine/core/styles/Checkbox.css';
import { useState } from 'react';
import { ActionIcon, Button, Checkbox, Group, Modal, SegmentedControl, Select, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { classroomToolLimits, pollForm, type PollKind } from '@mooz/contract/classroom-tools';
import { openPoll } from './tools-link';

const timers = ['0', '30', '60', '120', '300'];

export function PollFormModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [question, setQuestion] = useState('');
  const [kind, setKind] = useState<PollKind>('single');
  const [options, setOptions] = useState(['', '']);
  const [seconds, setSeconds] = useState('0');
  const [anonymous, setAnonymous] = useState(true);
  const [graded, setGraded] = useState(false);
  const [correct, setCorrect] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const choices = kind !== 'text';
  const timerLabel = (value: number) =>
    value === 0 ? t('meeting.poll.form.noTimer') : value < 60 ? t('meeting.poll.form.seconds', { count: value }) : t('meeting.poll.form.minutes', { count: value / 60 });

  const reset = () => {
    setQuestion('');
    setKind('single');
    setOptions(['', '']);
    setSeconds('0');
    setAnonymous(true);
    setGraded(false);
    setCorrect([]);
    setError(null);
  };

  const submit = async () => {
    const form = {
      question,
      kind,
      options: choices ? options : [],
      seconds: seconds === '0' ? null : Number(seconds),
      anonymous,
      graded: choices && graded,
      correct: choices && graded ? correct : [],
    };
    const checked = pollForm.safeParse(form);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      setError(t(`meeting.poll.form.invalid.${String(issue.path[0] ?? 'question')}`));
      return;
    }
    setSending(true);
    try {
      await openPoll(form);
      reset();
      onClose();
    } catch {
      // The server's reason was shown as a toast.
    } finally {
      setSending(false);
    }
  };

  const toggleCorrect = (index: number, on: boolean) =>
    setCorrect((now) => (kind === 'single' ? (on ? [index] : []) : on ? [...now, index] : now.filter((i) => i !== index)));

  return (
    <Modal opened={opened} onClose={onClose} title={t('meeting.poll.form.title')} centered size="lg" data-testid="poll-form">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Textarea
            label={t('meeting.poll.form.question')}
            value={question}
            onChange={(event) => setQuestion(event.currentTarget.value)}
            maxLength={classroomToolLimits.pollQuestionMaxLength}
            autosize
            minRows={2}
            required
            data-autofocus
            data-testid="poll-question"
          />
          <SegmentedControl
            value={kind}
            onChange={(value) => {
              setKind(value as PollKind);
              setCorrect([]);
            }}
            data={[
              { value: 'single', label: t('meeting.poll.kind.single') },
              { value: 'multiple', label: t('meeting.poll.kind.multiple') },
              { value: 'text', label: t('meeting.poll.kind.text') },
            ]}
            aria-label={t('meeting.poll.form.kind')}
            data-testid="poll-kind"
          />
          {choices && (
            <Stack gap={6} role="group" aria-label={t('meeting.poll.form.answers')}>
              <Text size="sm" fw={500}>
                {t('meeting.poll.form.answers')}
              </Text>
              {options.map((option, index) => (
                <Group key={index} gap="xs" wrap="nowrap">
                  {graded && (
                    <Checkbox
                      checked={correct.includes(index)}
                      onChange={(event) => toggleCorrect(index, event.currentTarget.checked)}
                      aria-label={t('meeting.poll.form.markRight', { number: index + 1 })}
                      data-testid="poll-correct"
                    />
                  )}
                  <TextInput
                    style={{ flex: 1 }}
                    value={option}
                    onChange={(event) => {
                      const value = event.currentTarget.value;
                      setOptions((now) => now.map((o, i) => (i === index ? value : o)));
                    }}
                    maxLength={classroomToolLimits.pollOptionMaxLength}
                    aria-label={t('meeting.poll.form.answer', { number: index + 1 })}
                    placeholder={t('meeting.poll.form.answer', { number: index + 1 })}
                    data-testid="poll-option"
                  />
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    disabled={options.length <= classroomToolLimits.pollMinOptions}
                    onClick={() => {
                      setOptions((now) => now.filter((_, i) => i !== index));
                      setCorrect((now) => now.filter((i) => i !== index).map((i) => (i > index ? i - 1 : i)));
                    }}
                    aria-label={t('meeting.poll.form.removeAnswer', { number: index + 1 })}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              ))}
              {options.length < classroomToolLimits.pollMaxOptions && (
                <Button variant="subtle" size="xs" leftSection={<IconPlus size={14} />} onClick={() => setOptions((now) => [...now, ''])} style={{ alignSelf: 'flex-start' }} data-testid="poll-add-option">
                  {t('meeting.poll.form.addAnswer')}
                </Button>
              )}
            </Stack>
          )}
          <Group grow align="flex-end">
            <Select
              label={t('meeting.poll.form.timer')}
              value={seconds}
              onChange={(value) => setSeconds(value ?? '0')}
              data={timers.map((value) => ({ value, label: timerLabel(Number(value)) }))}
              allowDeselect={false}
              data-testid="poll-timer"
            />
          </Group>
          <Switch label={t('meeting.poll.form.anonymous')} checked={anonymous} onChange={(event) => setAnonymous(event.currentTarget.checked)} data-testid="poll-anonymous" />
          {choices && (
            <Switch
              label={t('meeting.poll.form.graded')}
              description={t('meeting.poll.form.gradedHint')}
              checked={graded}
              onChange={(event) => setGraded(event.currentTarget.checked)}
              data-testid="poll-graded"
            />
          )}
          {error && (
            <Text c="red" size="sm" role="alert" data-testid="poll-form-error">
              {error}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={sending} data-testid="poll-ask">
              {t('meeting.poll.form.ask')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
