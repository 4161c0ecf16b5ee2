/*
 * Audit Trail (Sys Admin menu; issue #9): the last verification of the
 * audit log's hash chain — by the daily job or `npm run cli -- verify-audit`
 * — so a Sys_Admin sees at a glance whether the trail is intact, and where
 * it broke if not. Status is said in words, never by colour alone.
 */
import { Alert, Badge, Card, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { AuditVerification } from '@trialwear/contract';
import { displayableMessage } from '../../../lib/api-client';
import { useAuditVerification } from '../api/audit-trail-api';

const REASONS: Record<NonNullable<AuditVerification['firstBreak']>['reason'], string> = {
  missing_entry: 'an entry is missing (deleted)',
  prev_hash_mismatch: 'an entry is linked to the wrong predecessor (re-linked)',
  hash_mismatch: 'an entry does not match its hash (edited)',
  head_mismatch: 'the last entries are missing (the chain head does not match)',
  anchor_mismatch: 'the chain no longer matches a head written outside the database (rebuilt)',
};

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export default function AuditTrailPage() {
  const verification = useAuditVerification();
  const v = verification.data?.verification;
  return (
    <Stack maw={820}>
      <Title order={2}>Audit Trail</Title>
      <Text c="dimmed" size="sm">
        Every change is recorded in an append-only audit log whose entries form one hash chain. The chain is
        verified every day (and by <Code>npm run cli -- verify-audit</Code>); its head is also written outside
        the database, so a rewritten log cannot pass unnoticed.
      </Text>
      {verification.error && (
        <Alert color="red">
          {displayableMessage(verification.error, 'Could not load the verification.')}
        </Alert>
      )}
      {verification.data && !v && (
        <Alert color="gray" title="Not verified yet">
          The audit chain has not been verified yet. The daily verification runs at 00:05 UTC; an operator can
          run it now with <Code>npm run cli -- verify-audit</Code>.
        </Alert>
      )}
      {v && (
        <Card withBorder>
          <Group justify="space-between" mb="sm">
            <Title order={3} size="h4">
              Last verification
            </Title>
            <Badge color={v.ok ? 'teal' : 'red'} size="lg" variant="light">
              {v.ok ? 'Intact' : 'Broken'}
            </Badge>
          </Group>
          {!v.ok && v.firstBreak && (
            <Alert color="red" title="The audit chain is broken" mb="sm">
              At position {v.firstBreak.seq}
              {v.firstBreak.id !== null ? ` (entry ${v.firstBreak.id})` : ''}: {REASONS[v.firstBreak.reason]}.
              Keep the database and the anchor file as they are and investigate.
            </Alert>
          )}
          <Table variant="vertical" withTableBorder={false} aria-label="Last verification">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={200}>Verified at</Table.Th>
                <Table.Td>{when(v.verifiedAt)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Verified by</Table.Th>
                <Table.Td>
                  {v.source === 'job' ? 'the daily job' : 'the command line (verify-audit)'}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Entries checked</Table.Th>
                <Table.Td>{v.entries.toLocaleString()}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Chain head</Table.Th>
                <Table.Td>
                  position {v.headSeq.toLocaleString()}, hash{' '}
                  <Code title={v.headHash}>{v.headHash.slice(0, 16)}…</Code>
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Card>
      )}
    </Stack>
  );
}
