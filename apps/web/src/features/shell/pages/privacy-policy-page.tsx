import { List, Stack, Text, Title } from '@mantine/core';

export default function PrivacyPolicyPage() {
  return (
    <Stack maw={760}>
      <Title order={2}>Privacy Policy</Title>
      <Text>
        TrialWear is used by research teams to collect data from participants' wearable and health devices for
        clinical trials. This policy explains what the portal stores and how it is protected.
      </Text>
      <Title order={4}>What we store</Title>
      <List spacing="xs">
        <List.Item>
          Staff accounts: name, username, email, organization, team memberships and roles.
        </List.Item>
        <List.Item>
          Participants: a participant code, and, only where the team allows it, an email address and notes.
          Teams may hide both; a hidden email is never stored.
        </List.Item>
        <List.Item>
          Device data that a participant has authorized, limited to the metrics the team has enabled, kept for
          the team's retention period and then deleted.
        </List.Item>
        <List.Item>An audit trail of every change, which cannot be altered.</List.Item>
      </List>
      <Title order={4}>De-identification</Title>
      <Text>
        Personal health information must never be typed into free-text fields. All data must be anonymized and
        de-identified; participants are referred to by code.
      </Text>
      <Title order={4}>Access and security</Title>
      <Text>
        Data is visible only to members of the team that owns the trial, according to their role. Device
        access tokens are encrypted at rest, sign-in uses a second factor, and sessions expire after
        inactivity.
      </Text>
      <Title order={4}>Your choices</Title>
      <Text>
        Participants may revoke device access at any time through their team or the device provider. For
        questions, use the Contact Us form.
      </Text>
    </Stack>
  );
}
