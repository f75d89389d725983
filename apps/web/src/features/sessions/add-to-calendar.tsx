// "Add to calendar" on a session: downloads its .ics (fetched with the bearer token, saved under the
// server's file name), which calendar apps open to add the event with its join link.
import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconCalendarDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { apiRoutes } from '@mooz/contract/api-routes';
import type { Session } from '@mooz/contract/courses';
import { messages } from '@mooz/contract/messages';
import { messageOf } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';

export function AddToCalendarButton({ session }: { session: Session }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadFile(apiRoutes.sessions.ics, { id: session.id }, `session-${session.id}.ics`);
    } catch (error) {
      notify.error(translateServerMessage(t, messageOf(error, messages.unexpected)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="default"
      leftSection={<IconCalendarDown size={16} />}
      loading={busy}
      onClick={() => void download()}
      aria-label={t('sessions.addToCalendarLabel', { title: session.title })}
      data-testid="add-to-calendar"
    >
      {t('sessions.addToCalendar')}
    </Button>
  );
}
