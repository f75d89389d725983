import '../../styles/mantine-more';
import { Button } from '@mantine/core';
import { IconMapSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { StatusPage } from '../../components/status-page';
import { paths } from '../../config/paths';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <StatusPage
      testId="not-found"
      icon={<IconMapSearch size={48} stroke={1.5} />}
      code="404"
      title={t('notFound.title')}
      description={t('notFound.description')}
      actions={
        <Button component={Link} to={paths.home} size="md">
          {t('common.backHome')}
        </Button>
      }
    />
  );
}
