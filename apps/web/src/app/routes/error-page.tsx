// Last line of defence: a screen that crashed or a chunk that would not load still leaves a way out.
import '../../styles/mantine-more';
import { Button, Group } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { StatusPage } from '../../components/status-page';
import { NotFoundPage } from './not-found';

export function ErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  console.error(error);
  return (
    <StatusPage
      testId="error-page"
      color="red"
      icon={<IconAlertTriangle size={48} stroke={1.5} />}
      title={t('error.title')}
      description={t('error.description')}
      actions={
        <Group>
          <Button onClick={() => window.location.reload()} size="md">
            {t('error.reload')}
          </Button>
          <Button component="a" href="/" variant="default" size="md">
            {t('common.backHome')}
          </Button>
        </Group>
      }
    />
  );
}
