import '../../styles/mantine-more';
import { Button, Code } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { StatusPage } from '../../components/status-page';
import { paths } from '../../config/paths';
import { explainDenial, useAbility } from '../../lib/ability';
import { useSignedIn } from '../../lib/use-stored-auth';
import type { Action } from '@mooz/contract/permissions';

export function NotAuthorizedPage() {
  const { t } = useTranslation();
  const ability = useAbility();
  const signedIn = useSignedIn();
  const [params] = useSearchParams();
  const action = params.get('action');
  const subject = params.get('subject');
  return (
    <StatusPage
      testId="not-authorized"
      color="orange"
      icon={<IconLock size={48} stroke={1.5} />}
      code="403"
      title={t('notAuthorized.title')}
      description={
        <>
          {t('notAuthorized.description')}
          {action && subject && (
            <>
              <br />
              <Code mt="xs" display="inline-block">
                {explainDenial(ability, action as Action, subject)}
              </Code>
            </>
          )}
        </>
      }
      actions={
        <Button component={Link} to={signedIn ? paths.dashboard : paths.login} size="md">
          {signedIn ? t('notAuthorized.toDashboard') : t('auth.login.submit')}
        </Button>
      }
    />
  );
}
