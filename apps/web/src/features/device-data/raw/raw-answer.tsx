/*
 * A provider's raw answer as the raw pages show it (issue #10 item 9): status,
 * the provider path called, rate-limit headers, and the body as indented JSON
 * in a scrollable monospace block with a Copy button.
 */
import { Badge, Button, Card, Code, CopyButton, Group, ScrollArea, Stack, Table, Text } from '@mantine/core';
import type { RawDataResult } from '@trialwear/contract';

/** The body as people read it: two-space indented JSON (a string body is shown as is). */
export const prettyJson = (body: unknown) =>
  typeof body === 'string' ? body : JSON.stringify(body, null, 2);

export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  const text = prettyJson(value);
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text fw={500}>{label}</Text>
        <CopyButton value={text} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              size="xs"
              variant={copied ? 'filled' : 'light'}
              color={copied ? 'teal' : undefined}
              onClick={copy}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <ScrollArea.Autosize mah={480} type="auto">
        <Code
          block
          aria-label={label}
          style={{ whiteSpace: 'pre', fontFamily: 'var(--mantine-font-family-monospace)' }}
        >
          {text}
        </Code>
      </ScrollArea.Autosize>
    </Stack>
  );
}

export function RawAnswer({ answer }: { answer: RawDataResult }) {
  const ok = answer.status >= 200 && answer.status < 300;
  const headers = Object.entries(answer.headers);
  return (
    <Card withBorder>
      <Stack>
        <Group gap="md">
          <Badge color={ok ? 'teal' : 'red'} size="lg" aria-label="Status">
            {answer.status}
          </Badge>
          <Code aria-label="Request">{answer.request}</Code>
          <Text size="sm" c="dimmed">
            received {answer.receivedAt.replace('T', ' ').slice(0, 19)} UTC
            {answer.timeZone ? ` · participant’s zone ${answer.timeZone}` : ''}
          </Text>
        </Group>
        {headers.length > 0 && (
          <Table withTableBorder aria-label="Rate-limit headers" maw={520}>
            <Table.Tbody>
              {headers.map(([k, v]) => (
                <Table.Tr key={k}>
                  <Table.Td>
                    <Code>{k}</Code>
                  </Table.Td>
                  <Table.Td>{v}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <JsonBlock value={answer.body} label="Body" />
      </Stack>
    </Card>
  );
}
