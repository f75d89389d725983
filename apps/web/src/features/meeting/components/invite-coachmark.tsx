// The invite coachmark: points at the invite button while one is alone, with the link to copy.
import { ActionIcon, Button, CopyButton, Group, Popover, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconUserPlus } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { inviteLink } from '../identity';
import classes from '../meeting.module.css';

export function InviteCoachmark({ roomId, opened, onChange, size }: { roomId: string; opened: boolean; onChange: (opened: boolean) => void; size: number }) {
  const { t } = useTranslation();
  const link = inviteLink(roomId);
  const titleId = useId();
  return (
    <Popover opened={opened} onChange={onChange} position="top" withArrow shadow="lg" radius="md" width={340} trapFocus={false} closeOnClickOutside={false}>
      <Popover.Target>
        <Tooltip label={t('meeting.controls.invite')} disabled={opened}>
          <ActionIcon size={size} radius="xl" variant="default" className={classes.control} onClick={() => onChange(!opened)} aria-label={t('meeting.controls.invite')} aria-expanded={opened} data-testid="invite-button">
            <IconUserPlus size={22} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      {/* Named by its title: Mantine points it at the button, whose id the tooltip between them drops. */}
      <Popover.Dropdown aria-labelledby={titleId} data-testid="invite-coachmark">
        <Stack gap="xs">
          <Text fw={700} id={titleId}>
            {t('meeting.invite.title')}
          </Text>
          <Text size="sm" c="dimmed">
            {t('meeting.invite.description')}
          </Text>
          <TextInput value={link} readOnly aria-label={t('meeting.invite.title')} onFocus={(event) => event.currentTarget.select()} data-testid="invite-link" />
          <Group justify="space-between">
            <Button variant="subtle" size="xs" onClick={() => onChange(false)}>
              {t('meeting.invite.dismiss')}
            </Button>
            <CopyButton value={link}>
              {({ copied, copy }) => (
                <Button size="xs" color={copied ? 'teal' : undefined} leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />} onClick={copy} data-testid="copy-invite">
                  {copied ? t('meeting.invite.copied') : t('meeting.invite.copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
