/*
 * /FitbitParticipant1DayData: intraday heart rate (1-second or 1-minute
 * detail) and steps per minute for one day, optionally between a start and
 * an end time (core §5: both or neither). The shared chart keeps 86,400
 * points responsive (drag or wheel to zoom, Reset zoom).
 */
import { Alert, Button, Card, Group, Loader, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { DATA_MESSAGES, type Series, TRACKER_FORM_MESSAGES } from '@trialwear/contract';
import { addDays, wallClock } from '@trialwear/zone';
import { useMemo, useState } from 'react';
import { seriesFor, TimeChart } from '../../../../components/chart';
import { useTrackerPaths } from '../../api/fitbit-data-api';
import { ParticipantHeader } from '../components/participant-header';
import { dataErrorText } from '../data-error';
import { type HeartDetail, intradayPaths, readIntraday } from '../intraday';
import { useAskedFitbitDate, useFitbitPageState } from '../page-state';
import { todayIn, validateTimeWindow } from '../periods';
import { useRawShortcut } from '../use-raw-shortcut';

interface DayQuery {
  date: string;
  detail: HeartDetail;
  startTime: string;
  endTime: string;
}

export default function FitbitOneDayPage() {
  const page = useFitbitPageState();
  if (!page) return <Alert color="red">{DATA_MESSAGES.participantNotFound}</Alert>;
  return <OneDay {...page} />;
}

function OneDay({ participant, trial }: NonNullable<ReturnType<typeof useFitbitPageState>>) {
  useRawShortcut(participant, trial);
  const today = todayIn();
  // A day named by the caller (a study-health cell), else yesterday.
  const asked = useAskedFitbitDate();
  const [form, setForm] = useState<DayQuery>({
    date: asked && asked <= today ? asked : addDays(today, -1),
    detail: '1min',
    startTime: '',
    endTime: '',
  });
  const [query, setQuery] = useState<DayQuery>(form);
  const [errors, setErrors] = useState<{ date?: string; time?: string }>({});

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const found: typeof errors = {};
    if (!form.date) found.date = TRACKER_FORM_MESSAGES.startDate;
    else if (form.date > today) found.date = TRACKER_FORM_MESSAGES.future;
    const time = validateTimeWindow(form.startTime, form.endTime);
    if (time) found.time = time;
    setErrors(found);
    if (Object.keys(found).length === 0) setQuery(form);
  };

  const paths = useMemo(
    () => intradayPaths(query.date, query.detail, query.startTime, query.endTime),
    [query],
  );
  const q = useTrackerPaths(participant.id, participant.email, [paths.heart, paths.steps]);
  const charts = useMemo(() => {
    if (!q.data) return null;
    const [heart, steps] = q.data;
    const timeZone = heart!.timeZone;
    const hr = readIntraday(heart!.series ?? [], 'heart_rate_intraday');
    const st = readIntraday(steps!.series ?? [], 'steps');
    return {
      timeZone,
      hr: { x: hr.x, series: [seriesFor('heartRateIntraday', hr.values)] },
      steps: { x: st.x, series: [seriesFor('stepsIntraday', st.values)] },
      totalSteps: st.values.reduce<number>((a, b) => a + (b ?? 0), 0),
      hrPoints: hr.values.filter((v) => v !== null).length,
      sources: [
        `Heart rate: ${sourceText(heart!.series ?? [], timeZone)}`,
        `steps: ${sourceText(steps!.series ?? [], timeZone)}`,
      ].join('; '),
    };
  }, [q.data]);

  return (
    <Stack>
      <ParticipantHeader title="Fitbit one-day data" participant={participant} trial={trial} />
      <form onSubmit={submit} noValidate aria-label="One-day query">
        <Group align="flex-start">
          <TextInput
            type="date"
            label="Date"
            w={170}
            max={today}
            value={form.date}
            onChange={(e) => setForm({ ...form, date: e.currentTarget.value })}
            error={errors.date}
          />
          <div>
            <Text size="sm" fw={500} mb={4}>
              Heart rate detail
            </Text>
            <SegmentedControl
              aria-label="Heart rate detail level"
              value={form.detail}
              onChange={(v) => setForm({ ...form, detail: v as HeartDetail })}
              data={[
                { value: '1sec', label: '1 second' },
                { value: '1min', label: '1 minute' },
              ]}
            />
          </div>
          <TextInput
            type="time"
            label="Start time"
            w={130}
            value={form.startTime}
            onChange={(e) => setForm({ ...form, startTime: e.currentTarget.value })}
            error={errors.time}
          />
          <TextInput
            type="time"
            label="End time"
            w={130}
            value={form.endTime}
            onChange={(e) => setForm({ ...form, endTime: e.currentTarget.value })}
            error={errors.time ? ' ' : undefined}
          />
          <Button type="submit" mt={25}>
            Show day
          </Button>
        </Group>
      </form>
      {q.isLoading && <Loader size="sm" aria-label="Loading data" />}
      {q.error != null && <Alert color="red">{dataErrorText(q.error)}</Alert>}
      {charts && (
        <>
          <Text size="sm" c="dimmed">
            {query.date}
            {query.startTime && ` ${query.startTime}–${query.endTime}`}, participant’s local time (
            {charts.timeZone}): {charts.hrPoints.toLocaleString('en-US')} heart-rate readings,{' '}
            {charts.totalSteps.toLocaleString('en-US')} steps.
          </Text>
          <Text size="sm" c="dimmed" data-testid="intraday-source">
            {charts.sources}.
          </Text>
          <Card withBorder>
            <TimeChart
              title={`Heart rate (${query.detail === '1sec' ? '1-second' : '1-minute'} detail)`}
              x={charts.hr.x}
              series={charts.hr.series}
              y={{ unit: 'bpm' }}
              timeZone={charts.timeZone}
              granularity="time"
              height={300}
            />
          </Card>
          <Card withBorder>
            <TimeChart
              title="Steps per minute"
              x={charts.steps.x}
              series={charts.steps.series}
              y={{ unit: 'steps' }}
              timeZone={charts.timeZone}
              granularity="time"
              height={220}
            />
          </Card>
        </>
      )}
    </Stack>
  );
}

/**
 * Where a day's values came from (issue #24): the portal's store (the sync
 * stored the day whole: no provider call) with when they were fetched, on
 * the participant's clock, or the provider, read now.
 */
function sourceText(series: readonly Series[], timeZone: string) {
  const stored = series.find((x) => x.source.stored)?.source.stored;
  if (stored)
    return `stored, synced ${wallClock(timeZone, Date.parse(stored.syncedAt)).slice(0, 16).replace('T', ' ')}`;
  return 'live from Fitbit';
}
