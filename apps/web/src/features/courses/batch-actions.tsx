// What a teacher does to one batch: change its seats (never below those sold) or remove it (only
// while none are sold; the server says no with a 409 if one was sold meanwhile, and that is shown).
import { useState } from 'react';
import { Alert, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { IconAlertCircle, IconDeviceFloppy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { batchPatch, type Batch } from '@mooz/contract/batches';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import { CancelButton, DeleteButton } from '../../components/buttons';
import { ApiError, messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { soldSeatsIn } from './open-batch-form';
import { useChangeSeats, useRemoveBatch } from './use-batches';

export const seatsSold = (batch: Pick<Batch, 'capacity' | 'seats_left'>) => batch.capacity - batch.seats_left;

const validateSeats = zod4Resolver(batchPatch, { errorPriority: 'first' });

export interface BatchDialogProps {
  courseId: number;
  batch: Batch;
  /** How the batch is named in the dialog's title ("Weekend batch from 5 Dec 2026"). */
  name: string;
  opened: boolean;
  onClose(): void;
}

export function ChangeSeatsDialog({ courseId, batch, name, opened, onClose }: BatchDialogProps) {
  const { t } = useTranslation();
  const sold = seatsSold(batch);
  const change = useChangeSeats(courseId);
  const form = useForm<{ capacity: number | string }>({
    initialValues: { capacity: batch.capacity },
    validate: ({ capacity }) => {
      const seats = capacity === '' ? Number.NaN : Number(capacity);
      if (Object.keys(validateSeats({ capacity: seats })).length || seats < Math.max(sold, 1)) {
        return { capacity: t('batches.seats.range', { min: Math.max(sold, 1), max: limits.batchSeatsMax }) };
      }
      return {};
    },
  });
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={<Text fw={700}>{t('batches.seats.title', { name })}</Text>}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      centered
      data-testid="batch-seats-dialog"
    >
      <form
        noValidate
        onSubmit={form.onSubmit(({ capacity }) =>
          change.mutate(
            { batchId: batch.id, capacity: Number(capacity) },
            {
              onSuccess: (response) => {
                notify.success(translateServerMessage(t, response.message ?? messages.batchUpdated));
                onClose();
              },
              onError: (error) => {
                const text = error instanceof ApiError ? error.errors?.capacity?.[0] : undefined;
                if (text !== undefined) {
                  const count = soldSeatsIn(text);
                  form.setFieldError(
                    'capacity',
                    count === null ? t('batches.seats.soldMeanwhile') : t('batches.seats.belowSold', { count }),
                  );
                }
                notify.error(translateServerMessage(t, messageOf(error, messages.validationFailed)));
              },
            },
          ),
        )}
      >
        <Stack gap="md">
          <NumberInput
            label={t('batches.seats.label')}
            description={t('batches.seats.hint', { count: sold })}
            min={Math.max(sold, 1)}
            max={limits.batchSeatsMax}
            allowDecimal={false}
            data-autofocus
            {...form.getInputProps('capacity')}
            data-testid="batch-seats-input"
          />
          <Group justify="flex-end">
            <CancelButton onClick={onClose} />
            <Button
              type="submit"
              loading={change.isPending}
              leftSection={<IconDeviceFloppy size={16} />}
              data-testid="batch-seats-save"
            >
              {t('batches.seats.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function RemoveBatchDialog({ courseId, batch, name, opened, onClose }: BatchDialogProps) {
  const { t } = useTranslation();
  const remove = useRemoveBatch(courseId);
  const [refusal, setRefusal] = useState<string | null>(null);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={<Text fw={700}>{t('batches.remove.title', { name })}</Text>}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      centered
      data-testid="batch-remove-dialog"
    >
      <Stack gap="md">
        <Text>{t('batches.remove.text')}</Text>
        {refusal && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="batch-remove-refused">
            {refusal}
          </Alert>
        )}
        <Group justify="flex-end">
          <CancelButton onClick={onClose} data-autofocus />
          <DeleteButton
            loading={remove.isPending}
            disabled={refusal !== null}
            onClick={() =>
              remove.mutate(batch.id, {
                onSuccess: (response) => {
                  notify.success(translateServerMessage(t, response.message ?? messages.batchRemoved));
                  onClose();
                },
                onError: (error) => {
                  const text = translateServerMessage(t, messageOf(error, messages.unexpected));
                  if (error instanceof ApiError && error.status === 409) setRefusal(text);
                  notify.error(text);
                },
              })
            }
            data-testid="batch-remove-confirm"
          >
            {t('batches.remove.confirm')}
          </DeleteButton>
        </Group>
      </Stack>
    </Modal>
  );
}
