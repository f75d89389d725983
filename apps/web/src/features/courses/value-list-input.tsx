// A short list of dates or clock times: a native picker (keyboard friendly everywhere) to add one,
// and removable chips for those chosen.
import { useState } from 'react';
import { ActionIcon, Badge, CloseButton, Group, Input, Stack, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

interface ValueListInputProps {
  kind: 'date' | 'time';
  label: string;
  description?: string;
  value?: string[];
  onChange(value: string[]): void;
  error?: string;
  format(value: string): string;
  testId?: string;
}

export function ValueListInput({ kind, label, description, value = [], onChange, error, format, testId }: ValueListInputProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const add = () => {
    if (!draft || value.includes(draft)) return;
    onChange([...value, draft].sort());
    setDraft('');
  };
  return (
    <Input.Wrapper label={label} description={description} error={error} data-testid={testId}>
      <Stack gap={8} mt={4}>
        <Group gap="xs" wrap="nowrap">
          <TextInput
            type={kind}
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                add();
              }
            }}
            aria-label={t('teach.addValue', { label })}
            style={{ flex: 1 }}
            error={Boolean(error)}
          />
          <ActionIcon size={36} variant="light" onClick={add} disabled={!draft} aria-label={t('teach.addValue', { label })}>
            <IconPlus size={18} />
          </ActionIcon>
        </Group>
        {value.length > 0 && (
          <Group gap={6}>
            {value.map((item) => (
              <Badge
                key={item}
                variant="light"
                size="lg"
                radius="sm"
                tt="none"
                pe={4}
                rightSection={
                  <CloseButton
                    size="xs"
                    onClick={() => onChange(value.filter((v) => v !== item))}
                    aria-label={t('teach.removeValue', { value: format(item) })}
                  />
                }
              >
                {format(item)}
              </Badge>
            ))}
          </Group>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
