// Making a teacher or an admin: the account is active at once (contract), so the admin hands over the
// password themselves. The server checks every field; its errors come back onto the fields.
import { useState } from 'react';
import { Alert, Button, Group, Modal, PasswordInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { serverFieldErrors, useTranslatedField } from '../../lib/validation';
import { useCreateUser } from './use-admin';

interface Values {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  user_type: 'teacher' | 'admin';
}

export function CreateUserModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateUser();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Values>({
    mode: 'uncontrolled',
    initialValues: { first_name: '', last_name: '', email: '', password: '', user_type: 'teacher' },
  });
  const field = useTranslatedField(form);

  const close = () => {
    form.reset();
    setFailure(null);
    onClose();
  };

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await create.mutateAsync({ ...values, first_name: values.first_name.trim(), last_name: values.last_name.trim(), email: values.email.trim() });
      close();
    } catch (error) {
      setFailure(translateServerMessage(t, (error as Error).message));
      if (error instanceof ApiError) form.setErrors(serverFieldErrors(error.errors));
    }
  });

  return (
    <Modal opened={opened} onClose={close} title={t('admin.users.create.title')} centered radius="lg" data-testid="create-user-modal">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('admin.users.create.description')}
          </Text>
          {failure && (
            <Alert color="red" role="alert" data-testid="create-user-failure">
              {failure}
            </Alert>
          )}
          <div>
            <Text size="sm" fw={500} mb={4} id="create-user-role">
              {t('admin.users.create.role')}
            </Text>
            <SegmentedControl
              fullWidth
              aria-labelledby="create-user-role"
              data={[
                { value: 'teacher', label: t('admin.role.teacher') },
                { value: 'admin', label: t('admin.role.admin') },
              ]}
              key={form.key('user_type')}
              {...form.getInputProps('user_type')}
            />
          </div>
          <Group grow gap="sm" wrap="wrap">
            <TextInput label={t('auth.firstName')} required autoComplete="off" key={form.key('first_name')} {...field('first_name')} data-testid="create-first-name" />
            <TextInput label={t('auth.lastName')} required autoComplete="off" key={form.key('last_name')} {...field('last_name')} data-testid="create-last-name" />
          </Group>
          <TextInput label={t('auth.email')} type="email" required autoComplete="off" key={form.key('email')} {...field('email')} data-testid="create-email" />
          <PasswordInput label={t('admin.users.create.password')} required autoComplete="new-password" key={form.key('password')} {...field('password')} data-testid="create-password" />
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending} data-testid="create-user-submit">
              {t('admin.users.create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
