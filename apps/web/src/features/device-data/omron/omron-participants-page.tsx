/*
 * /OmronParticipantsDataPage (core §2, from /ParticipantsDataPage): up to 10
 * participants for a category since a start date, one line per participant
 * (daily means, see dailyMeans): blood pressure as a systolic and a diastolic
 * chart, weight in Lbs as one, and the same numbers in a table (a row per day,
 * a column per participant); the legend and columns by participant code or
 * #id. One Omron call per participant, in parallel.
 */
import { Alert, Button, Card, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import {
  DATA_MESSAGES,
  kgToLb,
  type OmronQuery,
  omronDataResultSchema,
  TABLE,
  type Trial,
} from '@trialwear/contract';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { DataTable } from '../../../components/data-table/data-table';
import { fetchOmronData } from '../api/omron-data-api';
import { type DataParticipant, participantLabel } from '../components/participant-frame';
import { dataErrorText } from '../lib/data-error';
import { dailyMeans, type LineData, participantLines } from '../lib/line-data';
import { wallClockSeconds } from '../lib/local-dates';
import { ParticipantsChart } from './omron-charts';
import {
  CATEGORY_LABEL,
  defaultOmronForm,
  type OmronForm,
  type OmronFormErrors,
  validateOmronForm,
} from './omron-form';

export default function OmronParticipantsDataPage() {
  const state = useLocation().state as { participants?: DataParticipant[]; trial?: Trial } | null;
  if (!state?.participants?.length) return <Alert color="red">{DATA_MESSAGES.participantNotFound}</Alert>;
  return <Compare participants={state.participants} trial={state.trial} />;
}

/** The answers as one value that changes only when an answer does (useQueries' combine is memoized). */
const combine = (rs: Array<{ data?: unknown; error: unknown; isLoading: boolean }>) => ({
  data: rs.map((r) => r.data),
  errors: rs.map((r) => r.error),
  loading: rs.some((r) => r.isLoading),
});

function Compare({ participants: all, trial }: { participants: DataParticipant[]; trial?: Trial }) {
  const participants = useMemo(() => all.slice(0, TABLE.participantSelectionMax), [all]);
  const navigate = useNavigate();
  const [form, setForm] = useState<OmronForm>(() => defaultOmronForm());
  const [errors, setErrors] = useState<OmronFormErrors>({});
  const [query, setQuery] = useState<OmronQuery>(() => ({
    category: 'bloodPressure',
    since: form.startDate,
    sortOrder: 'asc',
    limit: 0,
  }));
  const results = useQueries({
    queries: participants.map((p) => ({
      queryKey: ['omronData', p.id, query],
      queryFn: () => fetchOmronData(p.id, query),
      retry: false,
    })),
    combine,
  });

  // Daily means per participant: systolic and diastolic (blood pressure) or weight in Lbs.
  const { lines, diastolic } = useMemo(() => {
    const answers = participants.map((p, i) => {
      const parsed = omronDataResultSchema.safeParse(results.data[i]);
      return { label: participantLabel(p), d: parsed.success ? parsed.data : null };
    });
    const perDay = (value: (a: (typeof answers)[number]) => Array<{ x: number; y: number }>) =>
      participantLines(answers.map((a) => ({ label: a.label, points: dailyMeans(value(a)) })));
    if (query.category !== 'bloodPressure')
      return {
        lines: perDay((a) =>
          (a.d?.weight ?? []).map((r) => ({ x: wallClockSeconds(r.dateTimeLocal), y: kgToLb(r.weight) })),
        ),
        diastolic: null,
      };
    const bp = (pick: 'systolic' | 'diastolic') =>
      perDay((a) =>
        (a.d?.bloodPressure ?? []).map((r) => ({ x: wallClockSeconds(r.dateTimeLocal), y: r[pick] })),
      );
    return { lines: bp('systolic'), diastolic: bp('diastolic') };
  }, [participants, results.data, query.category]);

  const submit = () => {
    const found = validateOmronForm(form);
    setErrors(found);
    if (!found.category && !found.startDate)
      setQuery({
        category: form.category as OmronQuery['category'],
        since: form.startDate,
        sortOrder: 'asc',
        limit: 0,
      });
  };
  const failed = participants.filter((_, i) => results.errors[i]);
  const loading = results.loading;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Omron data · {participants.length} participants</Title>
        {trial && (
          <Button variant="default" onClick={() => navigate('/TrialPage', { state: { trial } })}>
            Trial: #{trial.trialNumber} - {trial.trialName}
          </Button>
        )}
      </Group>
      <Card withBorder>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Group align="flex-start">
            <Select
              label="Category"
              data={Object.entries(CATEGORY_LABEL).map(([value, label]) => ({ value, label }))}
              value={form.category || null}
              onChange={(v) => setForm((f) => ({ ...f, category: v ?? '' }))}
              clearable
              error={errors.category}
              w={200}
            />
            <TextInput
              label="Start date"
              type="date"
              value={form.startDate}
              onChange={(e) => {
                const startDate = e.currentTarget.value;
                setForm((f) => ({ ...f, startDate }));
              }}
              error={errors.startDate}
              w={180}
            />
            <Button type="submit" mt={25} loading={loading}>
              Show data
            </Button>
          </Group>
        </form>
      </Card>
      {failed.map((p) => (
        <Alert key={p.id} color="red">
          {participantLabel(p)}:{' '}
          {dataErrorText(results.errors[participants.indexOf(p)], DATA_MESSAGES.omronFailed)}
        </Alert>
      ))}
      {!loading && (
        <Card withBorder>
          <Text fw={500} mb="xs">
            Daily mean{' '}
            {query.category === 'bloodPressure'
              ? 'systolic and diastolic blood pressure (mmHg)'
              : 'weight (Lbs)'}{' '}
            since {query.since}
          </Text>
          {lines.x.length === 0 ? (
            <Text c="dimmed">{DATA_MESSAGES.noDataToDisplay}</Text>
          ) : diastolic ? (
            <Stack>
              <ParticipantsChart data={lines} unit="mmHg" title="Systolic blood pressure" />
              <ParticipantsChart data={diastolic} unit="mmHg" title="Diastolic blood pressure" />
              <DailyMeansTable lines={lines} diastolic={diastolic} unit="mmHg" />
            </Stack>
          ) : (
            <Stack>
              <ParticipantsChart data={lines} unit="Lbs" title="Weight" />
              <DailyMeansTable lines={lines} diastolic={null} unit="Lbs" />
            </Stack>
          )}
        </Card>
      )}
    </Stack>
  );
}

type DayRow = { date: string; cells: string[] };

/**
 * The charts' numbers as a table, a row per day (the participant's clock),
 * a column per participant: systolic/diastolic or the weight, "—" for a day
 * without a reading.
 */
function DailyMeansTable({
  lines,
  diastolic,
  unit,
}: {
  lines: LineData;
  diastolic: LineData | null;
  unit: string;
}) {
  const rows = useMemo<DayRow[]>(
    () =>
      lines.x.map((x, i) => ({
        date: new Date(x * 1000).toISOString().slice(0, 10),
        cells: lines.series.map((s, p) => {
          const v = s.values[i];
          if (v === null || v === undefined) return '—';
          const d = diastolic?.series[p]?.values[i];
          return diastolic ? `${v}/${d ?? '—'}` : String(v);
        }),
      })),
    [lines, diastolic],
  );
  const columns = useMemo<ColumnDef<DayRow, unknown>[]>(
    () => [
      { id: 'date', header: 'Date', accessorKey: 'date' },
      ...lines.series.map(
        (s, p): ColumnDef<DayRow, unknown> => ({
          id: `p${p}`,
          header: `${s.label} (${unit})`,
          accessorFn: (r) => r.cells[p],
          enableSorting: false,
        }),
      ),
    ],
    [lines, unit],
  );
  return (
    <DataTable
      data={rows}
      columns={columns}
      getRowId={(r) => r.date}
      stateKey="omron-participants-days"
      emptyText={DATA_MESSAGES.noDataToDisplay}
      globalFilter={false}
      pageSize={10}
      label={diastolic ? 'Daily mean blood pressure' : 'Daily mean weight'}
    />
  );
}
