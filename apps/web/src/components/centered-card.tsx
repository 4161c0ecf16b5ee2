import { Card, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The narrow centred card of the sign-in, password, sign-up and consent pages. */
export function CenteredCard({
  title,
  intro,
  children,
}: {
  title: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  return (
    <Stack align="center" py="xl">
      <Card withBorder shadow="sm" radius="md" p="xl" w="100%" maw={460}>
        <Stack>
          <div>
            <Title order={2}>{title}</Title>
            <Text c="dimmed" size="sm">
              {intro}
            </Text>
          </div>
          {children}
        </Stack>
      </Card>
    </Stack>
  );
}
