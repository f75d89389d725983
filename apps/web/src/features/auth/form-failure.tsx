// Why a form's request failed, in the server's words, announced to screen readers.
import type { ReactNode } from 'react';
import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

export function FormFailure({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" data-testid={testId}>
      {children}
    </Alert>
  );
}
