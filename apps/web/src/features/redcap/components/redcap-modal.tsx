import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  PasswordInput,
  ScrollArea,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  REDCAP_METRIC_LABELS,
  REDCAP_METRICS,
  REDCAP_NIGHTLY_DAYS,
  type RedcapEnrolPreview,
  type RedcapMetric,
  type RedcapSettings,
  type RedcapTestResult,
} from '@trialwear/contract';
import { addDays } from '@trialwear/zone';
import { useEffect, useState } from 'react';
import { ErrorList } from '../../../components/error-list';
import { PhiBanner } from '../../../components/phi-banner';
import { ApiRequestError, displayableMessage } from '../../../lib/api-client';
import {
  usePushRedcap,
  useRedcapEnrol,
  useRedcapLog,
  useRedcapSettings,
  useSaveRedcapSettings,
  useTestRedcap,
} from '../api/redcap-api';

const FAILED = 'The request failed. Please try again.';

/** A success notification (its close button is named by the theme: axe button-name). */
const done = (message: string) => notifications.show({ color: 'teal', message });

/** The field errors of a refused save, by path ('fieldMap.steps', 'token' …). */
function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiRequestError)) return {};
  return Object.fromEntries((err.body?.errors ?? []).map((e) => [e.path, e.message]));
}

/**
 * A trial's REDCap section (decision 048): the connection (Admin), pushing
 * daily summaries and the push log (Admin), and enrolling the project's
 * records as participants (whoever may add participants).
 */
export function RedcapModal({
  trialId,
  admin,
  onClose,
}: {
  trialId: number;
  admin: boolean;
  onClose: () => void;
}) {
  return (
    <Modal opened onClose={onClose} title="REDCap" centered size="xl">
      <Tabs defaultValue={admin ? 'connection' : 'enrol'} keepMounted={false}>
        <Tabs.List>
          {admin && <Tabs.Tab value="connection">Connection</Tabs.Tab>}
          {admin && <Tabs.Tab value="push">Push daily summaries</Tabs.Tab>}
          <Tabs.Tab value="enrol">Enrol from REDCap</Tabs.Tab>
        </Tabs.List>
        {admin && (
          <Tabs.Panel value="connection" pt="md">
            <ConnectionPanel trialId={trialId} />
          </Tabs.Panel>
        )}
        {admin && (
          <Tabs.Panel value="push" pt="md">
            <PushPanel trialId={trialId} />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="enrol" pt="md">
          <EnrolPanel trialId={trialId} />
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}

interface Form {
  apiUrl: string;
  token: string;
  recordIdField: string;
  emailField: string;
  instrument: string;
  eventName: string;
  dateField: string;
  fieldMap: Partial<Record<RedcapMetric, string>>;
  pushEnabled: boolean;
}

const EMPTY: Form = {
  apiUrl: '',
  token: '',
  recordIdField: 'record_id',
  emailField: '',
  instrument: '',
  eventName: '',
  dateField: '',
  fieldMap: {},
  pushEnabled: false,
};

const formOf = (s: RedcapSettings): Form => ({
  apiUrl: s.apiUrl,
  token: '',
  recordIdField: s.recordIdField,
  emailField: s.emailField ?? '',
  instrument: s.instrument,
  eventName: s.eventName ?? '',
  dateField: s.dateField,
  fieldMap: s.fieldMap,
  pushEnabled: s.pushEnabled,
});

function ConnectionPanel({ trialId }: { trialId: number }) {
  const settings = useRedcapSettings(trialId, true);
  const save = useSaveRedcapSettings(trialId);
  const test = useTestRedcap(trialId);
  const stored = settings.data?.settings ?? null;
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [tested, setTested] = useState<RedcapTestResult | null>(null);
  useEffect(() => {
    if (stored) setForm(formOf(stored));
  }, [stored]);
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  const text = (
    key: 'apiUrl' | 'recordIdField' | 'emailField' | 'instrument' | 'dateField' | 'eventName',
    label: string,
    more: { description?: string; placeholder?: string; required?: boolean } = {},
  ) => (
    <TextInput
      label={label}
      {...more}
      value={form[key]}
      onChange={(e) => set({ [key]: e.currentTarget.value })}
      error={errors[key]}
    />
  );
  const setMetric = (metric: RedcapMetric, field: string) =>
    setForm((f) => ({ ...f, fieldMap: { ...f.fieldMap, [metric]: field } }));

  const onTest = async () => {
    setTested(null);
    try {
      setTested(await test.mutateAsync({ apiUrl: form.apiUrl || undefined, token: form.token || undefined }));
    } catch (err) {
      setTested({ ok: false, message: displayableMessage(err, FAILED), project: null });
    }
  };
  const onSave = async () => {
    setErrors({});
    setError(null);
    try {
      const fieldMap = Object.fromEntries(Object.entries(form.fieldMap).filter(([, v]) => v?.trim()));
      await save.mutateAsync({ ...form, fieldMap, token: form.token || null });
      set({ token: '' });
      done('REDCap settings saved.');
    } catch (err) {
      setErrors(fieldErrors(err));
      setError(displayableMessage(err, FAILED));
    }
  };

  if (settings.isLoading) return <Text size="sm">Loading…</Text>;
  return (
    <Stack gap="sm">
      <Text size="sm">
        Connect this trial to a REDCap project: its API URL and an API token of a REDCap user with export and
        import rights. The fields are checked against the project's data dictionary before they are saved.
      </Text>
      <Group grow align="flex-start">
        {text('apiUrl', 'API URL', { placeholder: 'https://redcap.example.org/api/', required: true })}
        <PasswordInput
          label="API token"
          description={stored ? 'Stored (never shown). Leave empty to keep it.' : undefined}
          placeholder={stored ? '••••••••••••••••' : '32 hexadecimal characters'}
          value={form.token}
          onChange={(e) => set({ token: e.currentTarget.value })}
          error={errors.token}
          required={!stored}
        />
      </Group>
      <Group grow align="flex-start">
        {text('recordIdField', 'Record id field', { required: true })}
        {text('emailField', 'Email field (optional)')}
      </Group>
      <Group grow align="flex-start">
        {text('instrument', 'Repeating instrument', {
          description: 'The form that receives one instance per participant and day',
          required: true,
        })}
        {text('dateField', 'Date field', {
          description: "The instrument's field for the participant-local date",
          required: true,
        })}
        {text('eventName', 'Event (longitudinal projects)', {
          description: 'Unique event name, e.g. daily_arm_1',
        })}
      </Group>
      <Text fw={500} size="sm">
        Field mapping: the REDCap field of each daily value (empty: not sent)
      </Text>
      <Table withRowBorders={false} verticalSpacing={4} aria-label="Field mapping">
        <Table.Tbody>
          {REDCAP_METRICS.map((metric) => (
            <Table.Tr key={metric}>
              <Table.Td w="45%">
                <Text size="sm">{REDCAP_METRIC_LABELS[metric]}</Text>
              </Table.Td>
              <Table.Td>
                <TextInput
                  size="xs"
                  aria-label={`REDCap field for ${REDCAP_METRIC_LABELS[metric]}`}
                  value={form.fieldMap[metric] ?? ''}
                  onChange={(e) => setMetric(metric, e.currentTarget.value)}
                  error={errors[`fieldMap.${metric}`]}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Switch
        label={`Push every night (the last ${REDCAP_NIGHTLY_DAYS} days)`}
        checked={form.pushEnabled}
        onChange={(e) => set({ pushEnabled: e.currentTarget.checked })}
      />
      {tested && (
        <Alert
          color={tested.ok ? 'teal' : 'red'}
          role="status"
          title={tested.ok ? 'Connected' : 'Not connected'}
        >
          {tested.message}
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="light" onClick={onTest} loading={test.isPending} disabled={!form.apiUrl && !stored}>
          Test connection
        </Button>
        <Button onClick={onSave} loading={save.isPending}>
          Save settings
        </Button>
      </Group>
    </Stack>
  );
}

const todayUtc = () => new Date().toISOString().slice(0, 10);

function PushPanel({ trialId }: { trialId: number }) {
  const settings = useRedcapSettings(trialId, true);
  const log = useRedcapLog(trialId, true);
  const push = usePushRedcap(trialId);
  const yesterday = addDays(todayUtc(), -1);
  const [from, setFrom] = useState(addDays(yesterday, -(REDCAP_NIGHTLY_DAYS - 1)));
  const [to, setTo] = useState(yesterday);
  const [error, setError] = useState<string | null>(null);
  const connected = !!settings.data?.settings;

  const onPush = async () => {
    setError(null);
    try {
      const r = await push.mutateAsync({ from, to });
      done(r.message);
    } catch (err) {
      setError(displayableMessage(err, FAILED));
    }
  };
  const entries = log.data?.entries ?? [];
  return (
    <Stack gap="sm">
      <PhiBanner />
      {!connected && !settings.isLoading && (
        <Alert color="yellow">Connect a REDCap project first (Connection).</Alert>
      )}
      <Text size="sm">
        One instance of the repeating instrument per participant and participant-local day; pushing a day
        again overwrites its instance. Participants whose code suffix is no record of the project are skipped.
      </Text>
      <Group align="flex-end">
        <TextInput
          type="date"
          label="From"
          w={170}
          value={from}
          max={to}
          onChange={(e) => setFrom(e.currentTarget.value)}
        />
        <TextInput
          type="date"
          label="To"
          w={170}
          value={to}
          min={from}
          onChange={(e) => setTo(e.currentTarget.value)}
        />
        <Button onClick={onPush} loading={push.isPending} disabled={!connected}>
          Push now
        </Button>
      </Group>
      {error && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <Text fw={500} size="sm">
        Push log
      </Text>
      <ScrollArea.Autosize mah={260} type="auto">
        <Table striped stickyHeader aria-label="REDCap push log">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Started</Table.Th>
              <Table.Th>By</Table.Th>
              <Table.Th>Days</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Sent</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td>{new Date(e.startedAt).toLocaleString()}</Table.Td>
                <Table.Td>{e.trigger === 'nightly' ? 'nightly' : (e.startedBy ?? '')}</Table.Td>
                <Table.Td>
                  {e.from} – {e.to}
                </Table.Td>
                <Table.Td>
                  <Badge
                    variant="light"
                    color={e.status === 'done' ? 'teal' : e.status === 'failed' ? 'red' : 'blue'}
                  >
                    {e.status}
                    {e.attempt > 1 ? ` (try ${e.attempt})` : ''}
                  </Badge>
                  {e.error && (
                    <Text size="xs" c="red">
                      {e.error}
                      {e.willRetry ? ' — will be tried again' : ''}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {e.rows === null ? '' : `${plural(e.rows, 'day')}, ${plural(e.records ?? 0, 'record')}`}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {entries.length === 0 && (
          <Text size="sm" c="dimmed" ta="center" p="sm">
            Nothing pushed yet.
          </Text>
        )}
      </ScrollArea.Autosize>
    </Stack>
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const VERDICT_COLOR = { create: 'teal', update: 'blue', unchanged: 'gray', refused: 'red' } as const;

function EnrolPanel({ trialId }: { trialId: number }) {
  const { preview, apply } = useRedcapEnrol(trialId);
  const [result, setResult] = useState<RedcapEnrolPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const runPreview = async () => {
    setError(null);
    setResult(null);
    try {
      setResult(await preview.mutateAsync());
    } catch (err) {
      setError(displayableMessage(err, FAILED));
    }
  };
  const onApply = async () => {
    if (!result) return;
    setError(null);
    try {
      const applied = await apply.mutateAsync(result.previewDigest);
      done(applied.message);
      setResult(null);
    } catch (err) {
      setError(displayableMessage(err, FAILED));
      if (err instanceof ApiRequestError && err.status === 409) void runPreview();
    }
  };
  const changes = result ? result.counts.create + result.counts.update : 0;
  return (
    <Stack gap="sm">
      <PhiBanner />
      <Text size="sm">
        The project's records as participants of this trial: the record id becomes the participant code's
        suffix, the email field the participant's email. Nothing changes until you apply the preview.
      </Text>
      <Group>
        <Button variant="light" onClick={runPreview} loading={preview.isPending}>
          Preview records
        </Button>
      </Group>
      {error && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      {result && (
        <>
          <Group gap="xs">
            {(['create', 'update', 'unchanged', 'refused'] as const).map((v) => (
              <Badge key={v} color={VERDICT_COLOR[v]} variant="light" size="lg">
                {result.counts[v]} {v === 'create' ? 'to create' : v === 'update' ? 'to update' : v}
              </Badge>
            ))}
            {result.maxParticipants !== null && (
              <Text size="sm" c="dimmed">
                The team has {result.teamParticipants} of at most {result.maxParticipants} participants.
              </Text>
            )}
          </Group>
          <ScrollArea.Autosize mah={320} type="auto">
            <Table striped stickyHeader aria-label="Enrolment preview">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Record</Table.Th>
                  <Table.Th>Participant Code</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Verdict</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.rows.map((r) => (
                  <Table.Tr key={r.recordId}>
                    <Table.Td>{r.recordId}</Table.Td>
                    <Table.Td>{r.participantCode ?? ''}</Table.Td>
                    <Table.Td>
                      {r.email ?? ''}
                      {r.currentEmail && (
                        <Text size="xs" c="dimmed">
                          now {r.currentEmail}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {r.verdict === 'refused' ? (
                        <ErrorList errors={r.errors} />
                      ) : (
                        <Badge color={VERDICT_COLOR[r.verdict]} variant="light">
                          {r.verdict}
                        </Badge>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
          <Group justify="flex-end">
            <Button onClick={onApply} loading={apply.isPending} disabled={changes === 0}>
              {`Apply: create ${result.counts.create}, update ${result.counts.update}`}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
