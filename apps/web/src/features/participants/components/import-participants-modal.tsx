import {
  Alert,
  Anchor,
  Badge,
  Button,
  FileInput,
  Group,
  Modal,
  ScrollArea,
  SegmentedControl,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type HiddenField,
  type ImportPreview,
  PARTICIPANT_IMPORT_COLUMNS,
  PARTICIPANT_IMPORT_LIMITS,
  PARTICIPANT_MESSAGES,
} from '@trialwear/contract';
import { useState } from 'react';
import { ErrorList } from '../../../components/error-list';
import { PhiBanner } from '../../../components/phi-banner';
import { ApiRequestError, displayableMessage } from '../../../lib/api-client';
import { importTemplateUrl, useParticipantImport } from '../api/participants-api';

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Bulk enrolment (decision 045): a CSV or XLSX file → the server's verdict
 * on every row (the add-participant call's messages) → "create" the valid
 * rows as previewed, in one transaction. If the verdicts changed meanwhile
 * the server creates nothing; the modal says so and previews the file again.
 */
export function ImportParticipantsModal({
  trialId,
  hidden,
  onClose,
}: {
  trialId: number;
  hidden: HiddenField[];
  onClose: () => void;
}) {
  const { preview, apply } = useParticipantImport(trialId);
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ImportPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [show, setShow] = useState<'refused' | 'all'>('refused');

  const runPreview = async (f: File) => {
    setResult(null);
    try {
      const r = await preview.mutateAsync(f);
      setResult(r);
      setShow(r.refusedCount > 0 ? 'refused' : 'all');
    } catch (err) {
      setError(displayableMessage(err, PARTICIPANT_MESSAGES.other));
    }
  };
  const onPreview = () => {
    setError(null);
    if (file) void runPreview(file);
  };
  const onApply = async () => {
    if (!file || !result) return;
    setError(null);
    try {
      const done = await apply.mutateAsync({ file, previewDigest: result.previewDigest });
      notifications.show({ color: 'teal', message: done.message });
      onClose();
    } catch (err) {
      setError(displayableMessage(err, PARTICIPANT_MESSAGES.other));
      // The verdicts changed since the preview: show the new ones.
      if (err instanceof ApiRequestError && err.status === 409) void runPreview(file);
    }
  };

  const rows = result?.rows.filter((r) => show === 'all' || !r.valid) ?? [];
  const showEmail = !hidden.includes('email');
  return (
    <Modal opened onClose={onClose} title="Import participants" centered size="xl">
      <Stack>
        <PhiBanner />
        <Text size="sm">
          A CSV or XLSX file whose first row is the header <code>{PARTICIPANT_IMPORT_COLUMNS.join(',')}</code>{' '}
          (the fields of Add Participant), one participant a row: at most {PARTICIPANT_IMPORT_LIMITS.maxRows}{' '}
          participants and {PARTICIPANT_IMPORT_LIMITS.maxBytes / 1024 / 1024} MB.
          {hidden.length > 0 &&
            ` This team does not keep participants' ${hidden.join(' or ')}: those columns are ignored.`}
        </Text>
        <Group gap="md">
          <Text size="sm">Template:</Text>
          <Anchor size="sm" href={importTemplateUrl(trialId, 'csv')} download>
            CSV
          </Anchor>
          <Anchor size="sm" href={importTemplateUrl(trialId, 'xlsx')} download>
            XLSX
          </Anchor>
        </Group>
        <Group align="flex-end">
          <FileInput
            label="File of participants"
            placeholder="Choose a .csv or .xlsx file"
            accept={ACCEPT}
            value={file}
            onChange={(f) => {
              setFile(f);
              setResult(null);
              setError(null);
            }}
            clearable
            clearButtonProps={{ 'aria-label': 'Clear the file' }}
            style={{ flex: 1 }}
          />
          <Button variant="light" onClick={onPreview} disabled={!file} loading={preview.isPending}>
            Preview
          </Button>
        </Group>
        {error && (
          <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
            {error}
          </Alert>
        )}
        {result && (
          <>
            <Group justify="space-between">
              <Group gap="xs">
                <Badge color="teal" variant="light" size="lg">
                  {result.validCount} valid
                </Badge>
                <Badge color={result.refusedCount ? 'red' : 'gray'} variant="light" size="lg">
                  {result.refusedCount} refused
                </Badge>
                {result.maxParticipants !== null && (
                  <Text size="sm" c="dimmed">
                    The team has {result.teamParticipants} of at most {result.maxParticipants} participants.
                  </Text>
                )}
              </Group>
              <SegmentedControl
                size="xs"
                value={show}
                onChange={(v) => setShow(v as 'refused' | 'all')}
                data={[
                  { value: 'refused', label: 'Refused rows' },
                  { value: 'all', label: 'All rows' },
                ]}
              />
            </Group>
            <ScrollArea.Autosize mah={360} type="auto">
              <Table striped stickyHeader aria-label="Import preview">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Row</Table.Th>
                    <Table.Th>Participant Code</Table.Th>
                    {showEmail && <Table.Th>Email</Table.Th>}
                    <Table.Th>Gender</Table.Th>
                    <Table.Th>Age</Table.Th>
                    <Table.Th>Verdict</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((r) => (
                    <Table.Tr key={r.row}>
                      <Table.Td>{r.row}</Table.Td>
                      <Table.Td>{r.participantCode ?? r.values.codeSuffix}</Table.Td>
                      {showEmail && <Table.Td>{r.values.email}</Table.Td>}
                      <Table.Td>{r.values.gender}</Table.Td>
                      <Table.Td>{r.values.age}</Table.Td>
                      <Table.Td>
                        {r.valid ? (
                          <Badge color="teal" variant="light">
                            Valid
                          </Badge>
                        ) : (
                          <ErrorList errors={r.errors} />
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              {rows.length === 0 && (
                <Text size="sm" c="dimmed" ta="center" p="sm">
                  No refused rows.
                </Text>
              )}
            </ScrollArea.Autosize>
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            onClick={onApply}
            loading={apply.isPending}
            disabled={!result || result.validCount === 0 || preview.isPending}
          >
            {result
              ? `Create ${result.validCount} participant${result.validCount === 1 ? '' : 's'}`
              : 'Create participants'}
          </Button>
        </Group>
        {result && result.refusedCount > 0 && result.validCount > 0 && (
          <Text size="xs" c="dimmed" ta="right">
            Refused rows are left out: correct them and import a file of those rows.
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
