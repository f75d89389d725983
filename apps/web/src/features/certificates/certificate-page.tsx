// The public verification page of a certificate, /certificates/:id: anyone (signed in or not) can
// check whether an id was issued and still stands, what it certifies, and download its PDF.
import '../../styles/mantine-more';
import {
  Alert,
  Button,
  Card,
  Center,
  Code,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconCertificate,
  IconCertificateOff,
  IconDownload,
  IconRosetteDiscountCheckFilled,
} from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CertificateVerification } from '@mooz/contract/certificates';
import { messages } from '@mooz/contract/messages';
import { ListError } from '../../components/list-states';
import { StatusPage } from '../../components/status-page';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api';
import { isolate } from '../../lib/bidi';
import { formatDate } from '../../lib/format';
import { usePageTitle } from '../../lib/page-title';
import { translateServerMessage } from '../../lib/server-message';
import { isUnknownCertificate, useCertificateVerification } from './use-certificates';
import { dateTimeFormat } from '../../lib/intl';

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={600} style={{ overflowWrap: 'anywhere' }} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

/** An instant's calendar day, as the viewer writes dates. */
const dayOf = (iso: string, locale: string) => {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : isolate(dateTimeFormat(locale, { dateStyle: 'long' }).format(at));
};

function Verified({ certificate }: { certificate: CertificateVerification }) {
  const { t, i18n } = useTranslation();
  const valid = certificate.genuine && !certificate.revoked;
  const dates =
    certificate.start_date && certificate.end_date
      ? t('certificatePage.dates', {
          start: formatDate(certificate.start_date, i18n.language, 'long'),
          end: formatDate(certificate.end_date, i18n.language, 'long'),
        })
      : null;
  return (
    <Card
      withBorder
      radius="lg"
      p={{ base: 'lg', sm: 'xl' }}
      maw={760}
      w="100%"
      mx="auto"
      data-testid="certificate-card"
      data-state={valid ? 'genuine' : certificate.revoked ? 'revoked' : 'not-genuine'}
    >
      <Stack gap="lg">
        {valid ? (
          <Alert
            color="green"
            variant="light"
            radius="md"
            icon={<IconRosetteDiscountCheckFilled size={26} aria-hidden="true" />}
            title={<span data-testid="certificate-genuine">{t('certificatePage.genuine')}</span>}
          >
            {t('certificatePage.genuineBody')}
          </Alert>
        ) : (
          <Alert
            color="red"
            variant="light"
            radius="md"
            icon={<IconCertificateOff size={26} aria-hidden="true" />}
            title={
              <span data-testid="certificate-revoked">
                {certificate.revoked ? t('certificatePage.revoked') : t('certificatePage.notGenuine')}
              </span>
            }
          >
            {certificate.revoked ? t('certificatePage.revokedBody') : t('certificatePage.notGenuineBody')}
          </Alert>
        )}
        <Group gap="md" wrap="nowrap" align="flex-start">
          <ThemeIcon size={56} radius={28} variant="light" color={valid ? 'mooz' : 'gray'} style={{ flex: 'none' }}>
            <IconCertificate size={32} aria-hidden="true" />
          </ThemeIcon>
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Text size="sm" c="dimmed">
              {t('certificatePage.certifies')}
            </Text>
            <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }} data-testid="certificate-student">
              {certificate.student_name}
            </Title>
            <Text style={{ overflowWrap: 'anywhere' }}>
              {t('certificatePage.completed', { course: certificate.course_name })}
            </Text>
          </Stack>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Fact label={t('certificatePage.course')} value={certificate.course_name} testId="certificate-course" />
          <Fact label={t('certificatePage.teacher')} value={certificate.teacher_name} testId="certificate-teacher" />
          {dates && <Fact label={t('certificatePage.batch')} value={dates} testId="certificate-dates" />}
          <Fact
            label={t('certificatePage.issued')}
            value={dayOf(certificate.issued_at, i18n.language)}
            testId="certificate-issued"
          />
        </SimpleGrid>
        <Stack gap={2}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {t('certificatePage.id')}
          </Text>
          <Code fz="sm" w="fit-content" style={{ overflowWrap: 'anywhere' }} dir="ltr" data-testid="certificate-id">
            {certificate.id}
          </Code>
        </Stack>
        <Group>
          <Button
            component="a"
            href={certificate.url}
            download={`certificate-${certificate.id}.pdf`}
            leftSection={<IconDownload size={16} />}
            data-testid="certificate-download"
          >
            {t('certificatePage.download')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export function CertificatePage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const query = useCertificateVerification(id);
  usePageTitle(
    query.data ? t('certificatePage.titleOf', { name: query.data.data.student_name, postProcess: [] }) : undefined,
  );

  if (query.isPending) {
    return (
      <Center py={64} data-testid="certificate-loading">
        <Loader aria-label={t('certificatePage.checking')} />
      </Center>
    );
  }
  if (query.isError) {
    if (isUnknownCertificate(query.error)) {
      return (
        <StatusPage
          testId="certificate-not-found"
          icon={<IconAlertTriangle size={48} stroke={1.5} />}
          color="orange"
          code="404"
          title={t('certificatePage.notFound.title')}
          description={
            <>
              {t('certificatePage.notFound.description')}
              {/* On a line of its own: an id inside a sentence scrambles it in a right-to-left layout. */}
              <Code
                block
                dir="ltr"
                mt="xs"
                mx="auto"
                w="fit-content"
                maw="100%"
                style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
              >
                {id}
              </Code>
            </>
          }
          actions={
            <Button component={Link} to={paths.home} variant="light">
              {t('common.backHome')}
            </Button>
          }
        />
      );
    }
    return (
      <Stack maw={760} mx="auto" w="100%">
        <ListError
          testId="certificate-error"
          title={t('certificatePage.loadFailed')}
          message={translateServerMessage(t, messageOf(query.error, messages.unexpected))}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      </Stack>
    );
  }
  return (
    <Stack gap="md" w="100%" data-testid="certificate-page">
      <Title order={1} size="h2" ta="center">
        {t('certificatePage.pageTitle')}
      </Title>
      <Verified certificate={query.data.data} />
    </Stack>
  );
}
