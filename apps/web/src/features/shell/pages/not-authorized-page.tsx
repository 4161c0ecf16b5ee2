import { Button, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router';

/** 403 page (core §2). */
export default function NotAuthorizedPage() {
  const navigate = useNavigate();
  return (
    <Stack align="center" py="xl" gap="sm">
      <Text fz={48} fw={800} c="red.7">
        403
      </Text>
      <Title order={2}>Not authorized</Title>
      <Text c="dimmed">Your role does not give you access to this page.</Text>
      <Button onClick={() => navigate('/')}>Go home</Button>
    </Stack>
  );
}
