import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <Stack align="center" py="xl" gap="sm">
      <Title order={2}>Page not found</Title>
      <Text c="dimmed">The page you asked for does not exist.</Text>
      <Button component={Link} to="/">
        Go home
      </Button>
    </Stack>
  );
}
