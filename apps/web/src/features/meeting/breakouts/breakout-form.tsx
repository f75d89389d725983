// The host's split of the class into breakout rooms: how many groups, at random, by hand (each person
// given a group here) or letting the students choose, and optionally for how long.
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Radio.css';
import { useEffect, useState } from 'react';
import { Button, Checkbox, Group, Modal, NumberInput, Radio, Select, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { breakoutForm, breakoutLimits, breakoutModes, type BreakoutMode } from '@mooz/contract/breakouts';
import { openBreakouts, refreshBreakouts, useBreakouts } from './breakouts-link';

/** A group's name as people read it: "Group 2". */
export const useGroupName = () => {
  const { t } = useTranslation();
  return (group: number) => t('meeting.breakouts.group', { number: group + 1 });
};

export function BreakoutFormModal() {
  const { t } = useTranslation();
  const groupName = useGroupName();
  const opened = useBreakouts((state) => state.formOpen);
  const unplaced = useBreakouts((state) => state.unplaced);
  const [groups, setGroups] = useState<number | string>(2);
  const [mode, setMode] = useState<BreakoutMode>('random');
  const [timed, setTimed] = useState(false);
  const [minutes, setMinutes] = useState<number | string>(10);
  /** By hand: the group of each person (by account), as a Select's value; '' stays in the main room. */
  const [chosen, setChosen] = useState<Record<number, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const close = () => useBreakouts.setState({ formOpen: false });
  const count = Number(groups) || 0;

  // Whom there is to split, as the server sees the main room now.
  useEffect(() => {
    if (opened) refreshBreakouts();
  }, [opened]);

  // By hand, everyone starts dealt in turn, which the host then changes.
  useEffect(() => {
    setChosen((now) => Object.fromEntries(unplaced.map((person, index) => [person.userId, now[person.userId] ?? String(index % Math.max(count, 1))])));
  }, [unplaced, count]);

  const submit = async () => {
    const form = {
      groups: count,
      mode,
      minutes: timed ? Number(minutes) : null,
      assignments:
        mode === 'manual'
          ? unplaced.flatMap((person) => {
              const group = chosen[person.userId];
              return group && Number(group) < count ? [{ userId: person.userId, group: Number(group) }] : [];
            })
          : [],
    };
    const checked = breakoutForm.safeParse(form);
    if (!checked.success) {
      setError(t(`meeting.breakouts.form.invalid.${String(checked.error.issues[0]!.path[0] ?? 'groups')}`));
      return;
    }
    setError(null);
    setSending(true);
    try {
      await openBreakouts(form);
    } catch {
      // The server's reason was shown as a toast.
    } finally {
      setSending(false);
    }
  };

  const groupChoices = [
    { value: '', label: t('meeting.breakouts.mainRoom') },
    ...Array.from({ length: Math.min(count, breakoutLimits.maxGroups) }, (_, group) => ({ value: String(group), label: groupName(group) })),
  ];

  return (
    <Modal opened={opened} onClose={close} title={t('meeting.breakouts.form.title')} centered size="lg" data-testid="breakout-form">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <NumberInput
            label={t('meeting.breakouts.form.groups')}
            value={groups}
            onChange={setGroups}
            min={breakoutLimits.minGroups}
            max={breakoutLimits.maxGroups}
            allowDecimal={false}
            required
            data-autofocus
            data-testid="breakout-groups"
          />
          {/* Radios, not a segmented control: the three choices are too long for one row on a phone. */}
          <Radio.Group value={mode} onChange={(value) => setMode(value as BreakoutMode)} label={t('meeting.breakouts.form.mode')} data-testid="breakout-mode">
            <Group gap="md" mt={6}>
              {breakoutModes.map((value) => (
                <Radio key={value} value={value} label={t(`meeting.breakouts.mode.${value}`)} />
              ))}
            </Group>
          </Radio.Group>
          <Text size="sm" c="dimmed">
            {t(`meeting.breakouts.modeHint.${mode}`)}
          </Text>
          {mode === 'manual' &&
            (unplaced.length ? (
              <Table striped withRowBorders={false} data-testid="breakout-people">
                <Table.Tbody>
                  {unplaced.map((person) => (
                    <Table.Tr key={person.userId}>
                      <Table.Td>{person.userName}</Table.Td>
                      <Table.Td w={180}>
                        <Select
                          value={chosen[person.userId] ?? ''}
                          onChange={(value) => setChosen((now) => ({ ...now, [person.userId]: value ?? '' }))}
                          data={groupChoices}
                          allowDeselect={false}
                          aria-label={t('meeting.breakouts.form.groupOf', { name: person.userName })}
                          data-testid="breakout-person-group"
                          data-name={person.userName}
                          comboboxProps={{ withinPortal: true }}
                        />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            ) : (
              <Text size="sm" data-testid="breakout-no-one">
                {t('meeting.breakouts.form.noOne')}
              </Text>
            ))}
          <Group gap="sm" align="center">
            <Checkbox label={t('meeting.breakouts.form.timed')} checked={timed} onChange={(event) => setTimed(event.currentTarget.checked)} data-testid="breakout-timed" />
            {timed && (
              <NumberInput
                value={minutes}
                onChange={setMinutes}
                min={breakoutLimits.minMinutes}
                max={breakoutLimits.maxMinutes}
                allowDecimal={false}
                w={110}
                aria-label={t('meeting.breakouts.form.minutes')}
                rightSection={<Text size="xs">{t('meeting.breakouts.form.minutesUnit')}</Text>}
                rightSectionWidth={40}
                data-testid="breakout-minutes"
              />
            )}
          </Group>
          {error && (
            <Text size="sm" c="red" role="alert" data-testid="breakout-form-error">
              {error}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={sending} data-testid="breakout-open">
              {t('meeting.breakouts.form.open')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
