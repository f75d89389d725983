// /meeting: start a new meeting or join one by its id or invite link. The display name is kept in
// local storage for next time.
import '../../styles/mantine-more';
import { memo, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Card, Group, NumberInput, SimpleGrid, Stack, Text, TextInput, ThemeIcon, Title, type TextInputProps } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { IconAlertTriangle, IconDoorEnter, IconLink, IconUsers, IconVideoPlus } from '@tabler/icons-react';
import { useNavigate, type NavigateFunction } from 'react-router';
import { useTranslation } from 'react-i18next';
import { limits } from '@mooz/contract/limits';
import { joinRoomPayload, meetingForm } from '@mooz/contract/realtime';
import { paths } from '../../config/paths';
import { useAbility } from '../../lib/ability';
import { useStoredUser } from '../../lib/use-stored-auth';
import { translateServerMessage } from '../../lib/server-message';
import { roomIdFromInput, savedUserName, saveUserName } from './identity';
import { createRoom } from './services/ad-hoc-rooms';
import { prefetchIceServers } from './services/ice-servers';
import { prepareRoom } from './services/meeting';
import { meetingBlocker, meetingBlockerText } from './services/media';
import { dropWarmSignalling, warmSignalling } from './services/signalling';
import classes from './meeting.module.css';
import { useMeetingCapacity } from '../../lib/meeting-capacity';

const nameMax = limits.nameMaxLength;

/**
 * Fetches the meeting room's code (the chunk the router loads for /meeting/:roomId) while the lobby is
 * shown, so a click on Join or Start does not wait for it to download and compile.
 */
const prefetchRoomPage = () => import('./meeting-room-page').catch(() => undefined);

// The contract's rules for a new room and for joining one, with the display name the room shows.
const createSchema = meetingForm.extend({ userName: joinRoomPayload.shape.userName });
const validateCreate = zod4Resolver(createSchema, { errorPriority: 'first' });
const validateJoin = zod4Resolver(joinRoomPayload, { errorPriority: 'first' });

interface CreateValues {
  name: string;
  capacity: number | string;
  userName: string;
}

interface JoinValues {
  userName: string;
  roomId: string;
}

/** A lobby card's icon, title and one line of what it does. */
function CardHeading({ icon, color, title, description }: { icon: ReactNode; color?: string; title: string; description: string }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <ThemeIcon size={44} radius="md" variant="light" color={color}>
        {icon}
      </ThemeIcon>
      <div>
        <Title order={2} fz="lg">{title}</Title>
        <Text size="sm" c="dimmed">{description}</Text>
      </div>
    </Group>
  );
}

/** The name the room shows for you, in either form. */
function UserNameInput(props: TextInputProps & { 'data-testid': string }) {
  const { t } = useTranslation();
  return <TextInput label={t('meeting.userName')} placeholder={t('meeting.userNamePlaceholder')} required maxLength={nameMax} autoComplete="name" {...props} />;
}

/**
 * The lobby. What calls useNavigate redraws at every change of the router's state, and a click on Join
 * starts one ("loading" while the room's guard runs): the page only hands the router's navigate, which
 * stays the same, to the memoised lobby, so the forms are not drawn again while the meeting is joined.
 */
export function MeetingLobbyPage() {
  return <Lobby navigate={useNavigate()} />;
}

const Lobby = memo(function Lobby({ navigate }: { navigate: NavigateFunction }) {
  const { t } = useTranslation();
  const ability = useAbility();
  const user = useStoredUser();
  const initialName = savedUserName(user);
  const [creating, setCreating] = useState(false);
  // A page where no meeting can run says why before anyone fills in a form, and its buttons stay off.
  const [blocker] = useState(meetingBlocker);
  useEffect(() => {
    void prefetchRoomPage();
    // Kept for the join, so it does not wait for this request (services/meeting.ts).
    prefetchIceServers();
  }, []);

  // A wrong name is empty or too long; which of the two is the one thing the schema cannot say in
  // the user's language, so the hint is chosen here from the value.
  const nameHint = (value: string) => (value.trim() ? t('meeting.form.tooLong', { max: nameMax }) : t('meeting.form.required'));

  const { maxCapacity } = useMeetingCapacity();
  const createForm = useForm<CreateValues>({
    mode: 'controlled',
    initialValues: { name: limits.defaultMeetingName, capacity: limits.defaultMeetingCapacity, userName: initialName },
    validate: (values) => {
      const wrong = validateCreate({ ...values, capacity: values.capacity === '' ? undefined : values.capacity });
      // The schema allows the largest room of all; this server may hold fewer (no SFU).
      if (Number(values.capacity) > maxCapacity) wrong.capacity = 'over';
      const hints: Record<keyof CreateValues, string> = {
        name: nameHint(values.name),
        userName: nameHint(values.userName),
        capacity:
          values.capacity === '' || !Number.isInteger(Number(values.capacity))
            ? t('meeting.form.wholeNumber')
            : t('meeting.form.capacityRange', { min: limits.meetingMinCapacity, max: maxCapacity }),
      };
      return Object.fromEntries(Object.entries(hints).filter(([field]) => field in wrong));
    },
  });

  const joinForm = useForm<JoinValues>({
    mode: 'controlled',
    initialValues: { userName: initialName, roomId: '' },
    validate: (values) => {
      const wrong = validateJoin({ userName: values.userName, roomId: roomIdFromInput(values.roomId) ?? '' });
      const hints: Record<keyof JoinValues, string> = {
        userName: nameHint(values.userName),
        roomId: values.roomId.trim() ? t('meeting.join.invalidRoom') : t('meeting.form.required'),
      };
      return Object.fromEntries(Object.entries(hints).filter(([field]) => field in wrong));
    },
  });

  const create = createForm.onSubmit(async (values) => {
    setCreating(true);
    try {
      const room = await createRoom({ name: values.name.trim(), capacity: Number(values.capacity) });
      saveUserName(values.userName);
      prepareRoom(room.id, values.userName);
      navigate(paths.meeting(room.id));
    } catch (error) {
      createForm.setFieldError('name', translateServerMessage(t, (error as Error).message));
    } finally {
      setCreating(false);
    }
  });

  const join = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Only a wrong form stores its errors (validate): a valid one is left at once, as storing its empty
    // errors anew would draw the whole lobby again for nothing while the others' offers wait.
    if (!joinForm.isValid()) {
      joinForm.validate();
      return;
    }
    const values = joinForm.getValues();
    saveUserName(values.userName);
    const roomId = roomIdFromInput(values.roomId)!;
    // The camera, the ICE servers, the socket and the join start now, while the room's page loads (services/meeting.ts).
    prepareRoom(roomId, values.userName);
    navigate(paths.meeting(roomId));
  };

  // Once the form holds a room to join, the meeting's socket connects (services/signalling.ts), so the
  // click on Join sends the join at once. Not before: a tab's socket takes its peer's place from an
  // older one (a duplicated tab's meeting), which only a join should do. Closed with the lobby if unused.
  const wantedRoom = roomIdFromInput(joinForm.values.roomId);
  useEffect(() => {
    if (wantedRoom && !blocker) warmSignalling();
  }, [wantedRoom, blocker]);
  useEffect(() => dropWarmSignalling, []);

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
      {blocker && (
        <Alert color="orange" variant="light" radius="md" icon={<IconAlertTriangle size={20} />} title={t('meeting.blocked.title')} data-testid="meeting-blocked">
          {meetingBlockerText(t, blocker)}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: canCreate ? 2 : 1 }} spacing="lg">
        {canCreate && (
          <Card withBorder radius="lg" p="xl" component="form" onSubmit={create} noValidate data-testid="create-meeting-form" className={classes.lobbyCard}>
            <Stack gap="md">
              <CardHeading icon={<IconVideoPlus size={24} />} title={t('meeting.create.title')} description={t('meeting.create.description')} />
              <TextInput label={t('meeting.create.meetingName')} required maxLength={nameMax} {...createForm.getInputProps('name')} data-testid="meeting-name" />
              <NumberInput
                label={t('meeting.create.capacity')}
                description={t('meeting.create.capacityHint', { max: maxCapacity })}
                required
                min={limits.meetingMinCapacity}
                max={maxCapacity}
                allowDecimal={false}
                leftSection={<IconUsers size={16} />}
                {...createForm.getInputProps('capacity')}
                data-testid="meeting-capacity"
              />
              <UserNameInput {...createForm.getInputProps('userName')} data-testid="create-user-name" />
              <Button type="submit" size="md" loading={creating} disabled={!!blocker} leftSection={<IconVideoPlus size={18} />} data-testid="create-meeting">
                {t('meeting.create.submit')}
              </Button>
            </Stack>
          </Card>
        )}
        <Card withBorder radius="lg" p="xl" component="form" onSubmit={join} noValidate data-testid="join-meeting-form" className={classes.lobbyCard}>
          <Stack gap="md">
            <CardHeading icon={<IconDoorEnter size={24} />} color="teal" title={t('meeting.join.title')} description={t('meeting.join.description')} />
            <TextInput
              label={t('meeting.join.roomId')}
              placeholder={t('meeting.join.roomIdPlaceholder')}
              required
              leftSection={<IconLink size={16} />}
              {...joinForm.getInputProps('roomId')}
              data-testid="join-room-id"
            />
            <UserNameInput {...joinForm.getInputProps('userName')} data-testid="join-user-name" />
            <Button type="submit" size="md" color="teal" disabled={!!blocker} leftSection={<IconDoorEnter size={18} />} data-testid="join-meeting">
              {t('meeting.join.submit')}
            </Button>
          </Stack>
        </Card>
      </SimpleGrid>
    </Stack>
  );
});
