import { List, Stack, Text, Title } from '@mantine/core';

export default function TermsPage() {
  return (
    <Stack maw={760}>
      <Title order={2}>Terms of Use</Title>
      <Text>By using TrialWear you agree to these terms on behalf of yourself and your research team.</Text>
      <List spacing="xs">
        <List.Item>
          Use the portal only for approved research, within your team's protocol and ethics approval.
        </List.Item>
        <List.Item>
          Keep your credentials and second factor to yourself; report suspected misuse at once.
        </List.Item>
        <List.Item>
          Do not enter personal health information in free text; keep all data de-identified.
        </List.Item>
        <List.Item>
          Obtain participants' consent before linking their devices, and honour withdrawals promptly.
        </List.Item>
        <List.Item>
          Exports are for your trial's analysis only; store them securely and delete them when done.
        </List.Item>
        <List.Item>Access may be suspended when a subscription ends or these terms are broken.</List.Item>
      </List>
    </Stack>
  );
}
