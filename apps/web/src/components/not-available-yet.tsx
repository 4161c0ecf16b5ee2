import { Alert, Stack, Title } from '@mantine/core';

/** Placeholder for a page a later issue builds: it says so plainly, never pretends. */
export function NotAvailableYet({ title }: { title: string }) {
  return (
    <Stack>
      <Title order={2}>{title}</Title>
      <Alert color="gray" title="Not available yet">
        This page is not available yet.
      </Alert>
    </Stack>
  );
}
