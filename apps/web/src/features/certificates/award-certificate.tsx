// "Award certificate" for one student of a course (its teacher or an admin): a confirmation, then the
// server's answer: 'Certificate awarded' with a link to the verification page, or why not (409: the
// student has it already; 422: not a student of this course).
import { useState } from 'react';
import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCertificate, IconExternalLink } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { messages } from '@mooz/contract/messages';
import { messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { useAwardCertificate } from './use-certificates';

export function AwardCertificateButton({
  courseId,
  courseName,
  student,
}: {
  courseId: number;
  courseName: string;
  student: { id: number; name: string };
}) {
  const { t } = useTranslation();
  const award = useAwardCertificate(courseId);
  const [opened, setOpened] = useState(false);
  const [issued, setIssued] = useState<string | null>(null);

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
  return (
    <>
      <Button
        size="xs"
        variant="light"
        leftSection={<IconCertificate size={14} />}
        onClick={() => setOpened(true)}
        aria-label={t('certificateAward.named', { name: student.name })}
        data-testid="award-certificate"
      >
        {t('certificateAward.action')}
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('certificateAward.title')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
        centered
        radius="lg"
        data-testid="award-certificate-modal"
      >
        <Stack gap="md">
          <Text>{t('certificateAward.body', { name: student.name, course: courseName })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setOpened(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              leftSection={<IconCertificate size={16} />}
              loading={award.isPending}
              onClick={() =>
                award.mutate(student.id, {
                  onSuccess: (response) => {
                    notify.success(translateServerMessage(t, response.message ?? messages.certificateAwarded));
                    // The server names the verification page (certificate.verify_url).
                    setIssued(response.data.verify_url);
                    setOpened(false);
                  },
                  onError: (error) => {
                    notify.error(translateServerMessage(t, messageOf(error, messages.unexpected)));
                    setOpened(false);
                  },
                })
              }
              data-testid="award-certificate-confirm"
            >
              {t('certificateAward.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
