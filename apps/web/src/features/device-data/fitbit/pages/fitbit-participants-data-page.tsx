/*
 * /FitbitParticipantsDataPage (from /ParticipantsDataPage): up to 10
 * participants side by side for one metric and period, one line per
 * participant in the shared chart, legend by participant code (or #id), and a
 * table with a column per participant. Each participant's dates are their own
 * local dates, so the chart's x axis is the calendar date (drawn in UTC).
 */
import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { DATA_MESSAGES, TABLE, type Trial } from '@trialwear/contract';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { localDaysToUnix, SERIES_PALETTE, TimeChart } from '../../../../components/chart';
import { useTrackerPathsOfMany } from '../../api/fitbit-data-api';
import { dataErrorText } from '../data-error';
import { FITBIT_SUBJECTS, type FitbitSubjectKey, pathsFor, rowsFor, subjectKeys } from '../fitbit-subjects';
import { type DataParticipant, shownEmail } from '../page-state';
import {
  PERIOD_LABELS,
  type Period,
  periodsFor,
  type TrackerFormErrors,
  todayIn,
  validateTrackerForm,
} from '../periods';
import { queryRange } from '../tracker-query';

interface ManyQuery {
  subject: FitbitSubjectKey;
  period: Period | '';
  startDate: string;
  endDate: string;
}

const legendName = (p: DataParticipant) => p.code || `#${p.id}`;

export default function FitbitParticipantsDataPage() {
  const state = useLocation().state as {
    participants?: Array<{
      id: number;
      email?: string;
      code?: string | null;
      participant_code?: string | null;
    }>;
    trial?: Trial;
  } | null;
  const chosen = state?.participants;
  // One array for the page's life: the queries' combined result keeps its identity with it.
  const participants: DataParticipant[] = useMemo(
    () =>
      (chosen ?? []).slice(0, TABLE.participantSelectionMax).map((p) => ({
        id: p.id,
        email: shownEmail(p.email),
        code: p.code ?? p.participant_code ?? null,
      })),
    [chosen],
  );
  if (!state?.participants?.length) return <Alert color="red">{DATA_MESSAGES.participantNotFound}</Alert>;
  return (
    <ManyParticipants
      participants={participants}
      trial={state.trial ?? null}
      dropped={state.participants.length - participants.length}
    />
  );
}

function ManyParticipants({
  participants,
  trial,
  dropped,
}: {
  participants: DataParticipant[];
  trial: Trial | null;
  dropped: number;
}) {
  const navigate = useNavigate();
  const today = todayIn();
  const [form, setForm] = useState<ManyQuery>({ subject: 'steps', period: '7d', startDate: '', endDate: '' });
  const [query, setQuery] = useState<ManyQuery & { period: Period }>({ ...form, period: '7d' });
  const [errors, setErrors] = useState<TrackerFormErrors>({});
  const range = queryRange({ ...query, category: FITBIT_SUBJECTS[query.subject].category }, today);
  const s = FITBIT_SUBJECTS[query.subject];
  const rangeStart = range?.start;
  const rangeEnd = range?.end;
  const paths = useMemo(
    () => (rangeStart && rangeEnd ? pathsFor(query.subject, rangeStart, rangeEnd) : []),
    [query.subject, rangeStart, rangeEnd],
  );
  const results = useTrackerPathsOfMany(participants, paths);

  const chart = useMemo(() => {
    if (!rangeStart || !rangeEnd) return null;
    const perParticipant = results.map((r) => ({
      participant: r.participant,
      rows: r.data
        ? rowsFor(
            query.subject,
            rangeStart,
            rangeEnd,
            r.data.map((d) => d.series ?? []),
          )
        : null,
    }));
    const dates = perParticipant.find((p) => p.rows)?.rows?.map((r) => r.date) ?? [];
    return {
      dates,
      x: localDaysToUnix(dates, 'UTC'),
      perParticipant,
      series: perParticipant
        .filter((p) => p.rows)
        .map((p, i) => ({
          label: legendName(p.participant),
          values: p.rows!.map((r) => r.value),
          colour: SERIES_PALETTE[i % SERIES_PALETTE.length]!,
          kind: 'line' as const,
        })),
    };
  }, [results, query.subject, rangeStart, rangeEnd]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const found = validateTrackerForm(form, today);
    setErrors(found);
    if (Object.keys(found).length === 0 && form.period) setQuery({ ...form, period: form.period });
  };

  return (
    <Stack>
      {trial && (
        <Group>
          <Button variant="subtle" px={0} onClick={() => navigate('/TrialPage', { state: { trial } })}>
            Trial: #{trial.trialNumber} - {trial.trialName}
          </Button>
        </Group>
      )}
      <Title order={2}>Fitbit data of {participants.length} participants</Title>
      {dropped > 0 && (
        <Alert color="yellow">
          At most {TABLE.participantSelectionMax} participants are compared; {dropped} left out.
        </Alert>
      )}
      <form onSubmit={submit} noValidate aria-label="Metric and period">
        <Group align="flex-start">
          <Select
            label="Metric"
            w={220}
            value={form.subject}
            data={subjectKeys.map((k) => ({ value: k, label: FITBIT_SUBJECTS[k].label }))}
            onChange={(v) => {
              const subject = v as FitbitSubjectKey;
              setForm({
                ...form,
                subject,
                period: form.period && periodsFor(subject).includes(form.period) ? form.period : '',
              });
            }}
          />
          <Select
            label="Period"
            w={160}
            placeholder="Select a period"
            value={form.period || null}
            data={periodsFor(form.subject).map((p) => ({ value: p, label: PERIOD_LABELS[p] }))}
            onChange={(p) => setForm({ ...form, period: (p ?? '') as Period | '' })}
            error={errors.period}
          />
          {form.period === 'customDates' && (
            <>
              <TextInput
                type="date"
                label="Start date"
                w={170}
                max={today}
                value={form.startDate}
                onChange={(e) => setForm({ ...form, startDate: e.currentTarget.value })}
                error={errors.startDate}
              />
              <TextInput
                type="date"
                label="End date"
                w={170}
                max={today}
                value={form.endDate}
                onChange={(e) => setForm({ ...form, endDate: e.currentTarget.value })}
                error={errors.endDate}
              />
            </>
          )}
          <Button type="submit" mt={25}>
            Show data
          </Button>
        </Group>
      </form>
      {results.some((r) => r.isLoading) && <Loader size="sm" aria-label="Loading data" />}
      {results
        .filter((r) => r.error != null)
        .map((r) => (
          <Alert key={r.participant.id} color="red">
            {legendName(r.participant)}: {dataErrorText(r.error)}
          </Alert>
        ))}
      {chart && chart.series.length > 0 && (
        <Card withBorder>
          <Stack>
            <TimeChart
              title={`${s.label} (${s.unit}) by participant, ${range?.start} to ${range?.end}`}
              x={chart.x}
              series={chart.series}
              y={{ unit: s.unit }}
              timeZone="UTC"
              legend
            />
            <Text size="xs" c="dimmed">
              Each participant’s values are on their own local dates.
            </Text>
            <ScrollArea.Autosize mah={360}>
              <Table striped withTableBorder stickyHeader aria-label={`${s.label} by participant`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Date</Table.Th>
                    {/* Each column names its unit, as the chart's axis does. */}
                    {chart.perParticipant.map((p) => (
                      <Table.Th key={p.participant.id}>{`${legendName(p.participant)} (${s.unit})`}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {chart.dates.map((d, i) => (
                    <Table.Tr key={d}>
                      <Table.Td>{d}</Table.Td>
                      {chart.perParticipant.map((p) => {
                        const row = p.rows?.[i];
                        return (
                          <Table.Td key={p.participant.id}>
                            {row?.text ?? (row?.value == null ? '—' : row.value.toLocaleString('en-US'))}
                          </Table.Td>
                        );
                      })}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
