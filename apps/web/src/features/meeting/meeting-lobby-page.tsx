// /meeting: start a new meeting or join one by its id or invite link. The display name is kept in
// local storage for next time.
import { useState } from 'react';
import { Button, Card, Group, NumberInput, SimpleGrid, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDoorEnter, IconLink, IconUsers, IconVideoPlus } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { limits } from '@mooz/contract/limits';
import { paths } from '../../config/paths';
import { useAbility } from '../../lib/ability';
import { useStoredUser } from '../../lib/use-stored-auth';
import { translateServerMessage } from '../../lib/server-message';
import { roomIdFromInput, savedUserName, saveUserName } from './identity';
import { createRoom } from './services/ad-hoc-rooms';
import classes from './meeting.module.css';

const nameMax = 100;

export function MeetingLobbyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ability = useAbility();
  const user = useStoredUser();
  const initialName = savedUserName(user);
  const [creating, setCreating] = useState(false);

  const validName = (value: string) =>
    !value.trim() ? t('meeting.form.required') : value.trim().length > nameMax ? t('meeting.form.tooLong', { max: nameMax }) : null;

  const createForm = useForm({
    mode: 'controlled',
    initialValues: { meetingName: limits.defaultMeetingName, capacity: limits.defaultMeetingCapacity as number | string, userName: initialName },
    validate: {
      meetingName: validName,
      userName: validName,
      capacity: (value) => {
        const n = Number(value);
        if (value === '' || !Number.isInteger(n)) return t('meeting.form.wholeNumber');
        if (n < limits.meetingMinCapacity || n > limits.meetingMaxCapacity) return t('meeting.form.capacityRange', { min: limits.meetingMinCapacity, max: limits.meetingMaxCapacity });
        return null;
      },
    },
  });

  const joinForm = useForm({
    mode: 'controlled',
    initialValues: { userName: initialName, roomId: '' },
    validate: {
      userName: validName,
      roomId: (value) => (!value.trim() ? t('meeting.form.required') : roomIdFromInput(value) ? null : t('meeting.join.invalidRoom')),
    },
  });

  const create = createForm.onSubmit(async (values) => {
    setCreating(true);
    try {
      const room = await createRoom({ name: values.meetingName.trim(), capacity: Number(values.capacity) });
      saveUserName(values.userName);
      navigate(paths.meeting(room.id));
    } catch (error) {
      createForm.setFieldError('meetingName', translateServerMessage(t, (error as Error).message));
    } finally {
      setCreating(false);
    }
  });

  const join = joinForm.onSubmit((values) => {
    saveUserName(values.userName);
    navigate(paths.meeting(roomIdFromInput(values.roomId)!));
  });

  const canCreate = ability.can('create', 'Meeting');

  return (
    <Stack gap="xl" data-testid="meeting-lobby">
      <div>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {t('meeting.lobby.title')}
        </Title>
        <Text c="dimmed" mt={4}>
          {t('meeting.lobby.subtitle')}
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, md: canCreate ? 2 : 1 }} spacing="lg">
        {canCreate && (
          <Card withBorder radius="lg" p="xl" component="form" onSubmit={create} noValidate data-testid="create-meeting-form" className={classes.lobbyCard}>
            <Stack gap="md">
              <Group gap="sm" wrap="nowrap">
                <ThemeIcon size={44} radius="md" variant="light">
                  <IconVideoPlus size={24} />
                </ThemeIcon>
                <div>
                  <Title order={2} fz="lg">
                    {t('meeting.create.title')}
                  </Title>
                  <Text size="sm" c="dimmed">
                    {t('meeting.create.description')}
                  </Text>
                </div>
              </Group>
              <TextInput label={t('meeting.create.meetingName')} required maxLength={nameMax} {...createForm.getInputProps('meetingName')} data-testid="meeting-name" />
              <NumberInput
                label={t('meeting.create.capacity')}
                description={t('meeting.create.capacityHint', { max: limits.meetingMaxCapacity })}
                required
                min={limits.meetingMinCapacity}
                max={limits.meetingMaxCapacity}
                allowDecimal={false}
                leftSection={<IconUsers size={16} />}
                {...createForm.getInputProps('capacity')}
                data-testid="meeting-capacity"
              />
              <TextInput
                label={t('meeting.userName')}
                placeholder={t('meeting.userNamePlaceholder')}
                required
                maxLength={nameMax}
                autoComplete="name"
                {...createForm.getInputProps('userName')}
                data-testid="create-user-name"
              />
              <Button type="submit" size="md" loading={creating} leftSection={<IconVideoPlus size={18} />} data-testid="create-meeting">
                {t('meeting.create.submit')}
              </Button>
            </Stack>
          </Card>
        )}
        <Card withBorder radius="lg" p="xl" component="form" onSubmit={join} noValidate data-testid="join-meeting-form" className={classes.lobbyCard}>
          <Stack gap="md">
            <Group gap="sm" wrap="nowrap">
              <ThemeIcon size={44} radius="md" variant="light" color="teal">
                <IconDoorEnter size={24} />
              </ThemeIcon>
              <div>
                <Title order={2} fz="lg">
                  {t('meeting.join.title')}
                </Title>
                <Text size="sm" c="dimmed">
                  {t('meeting.join.description')}
                </Text>
              </div>
            </Group>
            <TextInput
              label={t('meeting.join.roomId')}
              placeholder={t('meeting.join.roomIdPlaceholder')}
              required
              leftSection={<IconLink size={16} />}
              {...joinForm.getInputProps('roomId')}
              data-testid="join-room-id"
            />
            <TextInput
              label={t('meeting.userName')}
              placeholder={t('meeting.userNamePlaceholder')}
              required
              maxLength={nameMax}
              autoComplete="name"
              {...joinForm.getInputProps('userName')}
              data-testid="join-user-name"
            />
            <Button type="submit" size="md" color="teal" leftSection={<IconDoorEnter size={18} />} data-testid="join-meeting">
              {t('meeting.join.submit')}
            </Button>
          </Stack>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
