// A centred message page (404, not authorized, errors, sign-in needed) with one clear way forward.
import type { ReactNode } from 'react';
import { Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';

interface StatusPageProps {
  icon: ReactNode;
  color?: string;
  code?: string;
  title: string;
  description: ReactNode;
  actions?: ReactNode;
  testId?: string;
}

export function StatusPage({ icon, color = 'mooz', code, title, description, actions, testId }: StatusPageProps) {
  return (
    <Center py={64} px="md" data-testid={testId} style={{ flex: 1 }}>
      <Stack align="center" gap="md" maw={520} ta="center">
        <ThemeIcon size={96} radius={48} variant="light" color={color}>
          {icon}
        </ThemeIcon>
        {code && (
          // The status code above the heading: a figure, not a paragraph (large bold text in a <p> reads as a heading).
          <Text component="div" fw={800} fz={56} lh={1} variant="gradient" gradient={{ from: 'mooz.6', to: 'violet.4', deg: 135 }}>
            {code}
          </Text>
        )}
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text c="dimmed" size="lg">
          {description}
        </Text>
        {actions}
      </Stack>
    </Center>
  );
}
