// The certificate cell of one student of a course (its teacher or an admin). Only an award the server
// would make is offered: the certificate they have already is a link; a batch that has ended offers
// "Award certificate" with a confirmation; before the end a teacher reads when it becomes possible,
// and an admin may "Award early" with a reason that the audit log keeps (contract: mayAwardEarly).
import { useState } from 'react';
import { Anchor, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconCertificate, IconClockHour4, IconExternalLink } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { certificateRules, mayAwardEarly } from '@mooz/contract/certificates';
import { messages } from '@mooz/contract/messages';
import type { CourseStudent } from '@mooz/contract/teaching';
import { ApiError, messageOf } from '../../lib/api';
import { useAuthStore } from '../../lib/auth-store';
import { formatDate } from '../../lib/format';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { useAwardCertificate } from './use-certificates';

type Student = Pick<CourseStudent, 'id' | 'name' | 'batch_ended' | 'certificate'> & { batch: Pick<CourseStudent['batch'], 'end_date'> };

export function AwardCertificateButton({ courseId, courseName, student }: { courseId: number; courseName: string; student: Student }) {
  const { t, i18n } = useTranslation();
  const award = useAwardCertificate(courseId);
  const admin = mayAwardEarly(useAuthStore((state) => state.user?.user_type));
  const [opened, setOpened] = useState(false);
  const [awarded, setIssued] = useState<string | null>(null);
  const issued = awarded ?? student.certificate?.verify_url ?? null;
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const early = !student.batch_ended;
  const endDate = formatDate(student.batch.end_date, i18n.language, 'long');

  if (issued) {
    return (
      <Anchor
        component={Link}
        to={issued}
        size="sm"
        display="inline-flex"
        style={{ alignItems: 'center', gap: 4 }}
        data-testid="certificate-awarded-link"
      >
        <IconExternalLink size={14} aria-hidden="true" />
        {t('certificateAward.view')}
      </Anchor>
    );
  }
  if (early && !admin) {
    return (
      <Text size="sm" c="dimmed" display="inline-flex" style={{ alignItems: 'center', gap: 4 }} data-testid="certificate-not-yet">
        <IconClockHour4 size={14} aria-hidden="true" style={{ flex: 'none' }} />
        {t('certificateAward.notYet', { date: endDate })}
      </Text>
    );
  }

  const close = () => {
    setOpened(false);
    setReasonError(null);
  };
  const submit = () => {
    const given = reason.trim();
    if (early && !given) {
      setReasonError(t('certificateAward.reasonRequired'));
      return;
    }
    award.mutate(
      { student_id: student.id, ...(early && { reason: given }) },
      {
        onSuccess: (response) => {
          notify.success(translateServerMessage(t, response.message ?? messages.certificateAwarded));
          // The server names the verification page (certificate.verify_url).
          setIssued(response.data.verify_url);
          close();
        },
        onError: (error) => {
          const text = translateServerMessage(t, messageOf(error, messages.unexpected));
          // A reason the server found wanting stays in the form; anything else is told and closes it.
          if (error instanceof ApiError && error.errors?.reason) setReasonError(text);
          else {
            notify.error(text);
            close();
          }
        },
      },
    );
  };

  return (
    <>
      <Button
        size="xs"
        variant="light"
        color={early ? 'orange' : undefined}
        leftSection={<IconCertificate size={14} />}
        onClick={() => setOpened(true)}
        aria-label={t(early ? 'certificateAward.earlyNamed' : 'certificateAward.named', { name: student.name })}
        data-testid={early ? 'award-certificate-early' : 'award-certificate'}
      >
        {t(early ? 'certificateAward.early' : 'certificateAward.action')}
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={t(early ? 'certificateAward.earlyTitle' : 'certificateAward.title')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
        centered
        radius="lg"
        data-testid="award-certificate-modal"
      >
        <Stack gap="md">
          <Text>{t('certificateAward.body', { name: student.name, course: courseName })}</Text>
          {early && (
            <>
              <Text size="sm" c="dimmed">
                {t('certificateAward.earlyBody', { date: endDate })}
              </Text>
              <Textarea
                label={t('certificateAward.reason')}
                required
                autosize
                minRows={2}
                maxLength={certificateRules.earlyReasonMaxLength}
                value={reason}
                onChange={(event) => {
                  setReason(event.currentTarget.value);
                  setReasonError(null);
                }}
                error={reasonError}
                data-autofocus
                data-testid="award-certificate-reason"
              />
            </>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button
              leftSection={<IconCertificate size={16} />}
              loading={award.isPending}
              onClick={submit}
              data-testid="award-certificate-confirm"
            >
              {t(early ? 'certificateAward.earlyConfirm' : 'certificateAward.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
