import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useAppVersion } from '../../../lib/public-config';

export function Footer() {
  const version = useAppVersion();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="wrap" gap="xs">
      <Text size="xs" c="dimmed">
        TrialWear {version.data ? `v${version.data}` : ''}
      </Text>
      <Group gap="md">
        <Anchor component={Link} to="/privacy-policy" size="xs">
          Privacy Policy
        </Anchor>
        <Anchor component={Link} to="/terms" size="xs">
          Terms
        </Anchor>
        <Anchor component={Link} to="/ContactUsForm/" size="xs">
          Contact Us
        </Anchor>
      </Group>
    </Group>
  );
}
