import { Anchor, List, Text } from '@mantine/core';
import { Link } from 'react-router';
import { CenteredCard } from '../../../components/centered-card';

/**
 * The spec leaves the participant login states open. Participants share data
 * through the consent link their study team emails them; there is nothing
 * else for them to sign in to yet, so this page explains that plainly.
 */
export default function ParticipantLoginPage() {
  return (
    <CenteredCard title="Participants" intro="You do not need to sign in to share your device data.">
      <Text size="sm">To connect your device to your study:</Text>
      <List size="sm">
        <List.Item>Open the consent link your study team emailed you.</List.Item>
        <List.Item>Sign in at your device provider (Fitbit, Omron or Dexcom) and choose Allow.</List.Item>
        <List.Item>
          To stop sharing, tell your study team or remove TrialWear in your provider account.
        </List.Item>
      </List>
      <Anchor component={Link} to="/ContactUsForm/" size="sm">
        Questions? Contact us
      </Anchor>
    </CenteredCard>
  );
}
