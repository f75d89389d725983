// The buttons that look and read the same wherever they are: Cancel, which closes a dialog and does
// nothing else, and Delete, red with a bin, on what opens a deletion and on the dialog that confirms it.
import { Button, type ButtonProps, type ElementProps } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

type Props = ButtonProps & ElementProps<'button', keyof ButtonProps>;

export function CancelButton(props: Omit<Props, 'children'>) {
  const { t } = useTranslation();
  return (
    <Button variant="default" {...props}>
      {t('common.cancel')}
    </Button>
  );
}

/** The bin is drawn at the size of the button's text: smaller on an extra-small button. */
export function DeleteButton({ size, ...props }: Props) {
  return <Button color="red" size={size} leftSection={<IconTrash size={size === 'xs' ? 14 : 16} />} {...props} />;
}
