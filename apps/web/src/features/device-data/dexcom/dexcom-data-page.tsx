/*
 * /DexcomParticipantDataPage (the spec leaves it open; issue #10 item 7): the
 * estimated glucose values of a chosen period (default 7 days; over 30 days
 * the server stitches 30-day windows), a step line with the 70–180 mg/dL
 * target shaded, the clinical summary and the readings, paged. Asked for a
 * day (?date=YYYY-MM-DD, a study-health cell's), it opens on that local day
 * of the participant until another period is chosen. Times are the
 * participant's clock throughout (Dexcom's displayTime): the window's header
 * names the first and last reading shown, as the table does.
 */
import { Alert, Card, Group, Loader, SegmentedControl, Stack, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { DATA_MESSAGES, type Egv, glucoseSummary, type Trial } from '@trialwear/contract';
import { useMemo, useState } from 'react';
import { DataTable } from '../../../components/data-table/data-table';
import { useDexcomEgvs } from '../api/dexcom-data-api';
import {
  type DataParticipant,
  ParticipantFrame,
  useAskedDate,
  WithParticipant,
} from '../components/participant-frame';
import { dataErrorText } from '../lib/data-error';
import { showLocal } from '../lib/local-dates';
import {
  DEFAULT_GLUCOSE_DAYS,
  egvReadings,
  GLUCOSE_PERIODS,
  glucoseDayWindow,
  glucoseLine,
  glucoseWindow,
  readingsOfDay,
  trendText,
} from './glucose';
import { GlucoseChart } from './glucose-chart';
import { GlucoseSummaryCard } from './glucose-summary-card';

export default function DexcomParticipantDataPage() {
  return (
    <WithParticipant>
      {(participant, trial) => <DexcomData participant={participant} trial={trial} />}
    </WithParticipant>
  );
}

type Reading = Egv & { value: number };

const columns: ColumnDef<Reading, unknown>[] = [
  { id: 'displayTime', header: 'Time (participant’s clock)', accessorFn: (r) => showLocal(r.displayTime) },
  { id: 'value', header: 'Glucose (mg/dL)', accessorKey: 'value' },
  { id: 'trend', header: 'Trend', accessorFn: (r) => trendText(r.trend) },
];

function DexcomData({ participant, trial }: { participant: DataParticipant; trial: Trial }) {
  const asked = useAskedDate();
  // A day asked for (a study-health cell): that local day of the participant, until a period is chosen.
  const [day, setDay] = useState<string | null>(asked ?? null);
  const [days, setDays] = useState<number>(asked ? 1 : DEFAULT_GLUCOSE_DAYS);
  // The window is fixed when the period is chosen, so the summary's days match what was asked.
  const [window, setWindow] = useState(() =>
    asked ? glucoseDayWindow(asked) : glucoseWindow(DEFAULT_GLUCOSE_DAYS),
  );
  const egvs = useDexcomEgvs(participant.id, window);
  const readings = useMemo(() => {
    const all = egvReadings(egvs.data?.series);
    return day ? readingsOfDay(all, day) : all;
  }, [egvs.data, day]);
  const summary = useMemo(
    () =>
      glucoseSummary(
        readings.map((r) => r.value),
        days,
      ),
    [readings, days],
  );
  const line = useMemo(() => glucoseLine(readings), [readings]);
  const newestFirst = useMemo(
    () => [...readings].sort((a, b) => Date.parse(b.systemTime) - Date.parse(a.systemTime)),
    [readings],
  );

  return (
    <ParticipantFrame
      title="Dexcom glucose"
      participant={participant}
      trial={trial}
      rawPage="/DexcomParticipantDataRaw"
    >
      <Group justify="space-between">
        <SegmentedControl
          aria-label="Period"
          value={String(days)}
          onChange={(v) => {
            setDay(null);
            setDays(Number(v));
            setWindow(glucoseWindow(Number(v)));
          }}
          data={GLUCOSE_PERIODS.map((d) => ({ value: String(d), label: d === 1 ? '1 day' : `${d} days` }))}
        />
        <Text size="sm" c="dimmed" aria-label="Window">
          {day
            ? `Day ${day} (participant’s clock)`
            : newestFirst.length
              ? `${showLocal(newestFirst.at(-1)!.displayTime)} – ${showLocal(newestFirst[0]!.displayTime)} (participant’s clock)`
              : `Last ${days === 1 ? 'day' : `${days} days`}`}
          {egvs.data?.timeZone ? ` · participant’s zone ${egvs.data.timeZone}` : ''}
        </Text>
      </Group>
      {egvs.isLoading && <Loader aria-label="Loading glucose data" />}
      {egvs.error && <Alert color="red">{dataErrorText(egvs.error, DATA_MESSAGES.dexcomFailed)}</Alert>}
      {egvs.data && readings.length === 0 && <Alert color="gray">{DATA_MESSAGES.noDataAvailable}</Alert>}
      {egvs.data && readings.length > 0 && (
        <Stack>
          <GlucoseSummaryCard summary={summary} days={days} />
          <Card withBorder>
            <GlucoseChart data={line} />
          </Card>
          <DataTable
            data={newestFirst}
            columns={columns}
            getRowId={(r) => r.systemTime}
            stateKey="dexcom-egvs"
            emptyText={DATA_MESSAGES.noDataAvailable}
            globalFilter={false}
            pageSize={10}
            label="Glucose readings"
            exportAs={{
              fileBase: 'glucose',
              columns: [
                { header: 'systemTime', value: (r) => (r as Reading).systemTime },
                { header: 'displayTime', value: (r) => (r as Reading).displayTime },
                { header: 'value (mg/dL)', value: (r) => (r as Reading).value },
                { header: 'trend', value: (r) => (r as Reading).trend },
              ],
            }}
          />
        </Stack>
      )}
    </ParticipantFrame>
  );
}
