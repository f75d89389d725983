// The keyboard shortcuts' help: a button under the player opening a small table of them.
import { Button, Kbd, Popover, Table, Text } from '@mantine/core';
import '@mantine/core/styles/Table.css';
import { IconKeyboard } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { shortcutList } from './shortcuts';
import classes from './recordings.module.css';

export function ShortcutsHelp({ opened, onChange }: { opened: boolean; onChange(opened: boolean): void }) {
  const { t } = useTranslation();
  return (
    <Popover opened={opened} onChange={onChange} position="bottom-end" withArrow shadow="md" radius="md" trapFocus={false} returnFocus>
      <Popover.Target>
        <Button variant="default" leftSection={<IconKeyboard size={16} />} onClick={() => onChange(!opened)} data-testid="shortcuts-button">
          {t('recordings.keys.title')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="shortcuts-help">
        <Table verticalSpacing={4} horizontalSpacing="xs" withRowBorders={false}>
          <Table.Tbody>
            {shortcutList.map((item) => (
              <Table.Tr key={item.labelKey}>
                <Table.Td className={classes.keys}>
                  {item.keys.map((key, index) => (
                    <span key={key}>
                      {index > 0 && ' '}
                      <Kbd size="xs">{key === 'Space' ? t('recordings.keys.space') : key}</Kbd>
                    </span>
                  ))}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{t(item.labelKey)}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="xs" c="dimmed" mt={6} maw={280}>
          {t('recordings.keys.note')}
        </Text>
      </Popover.Dropdown>
    </Popover>
  );
}

