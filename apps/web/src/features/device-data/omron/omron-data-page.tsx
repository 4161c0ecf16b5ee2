/*
 * /OmronParticipantDataPage (core §2, §5): the scale form (category, start
 * date, results limit, sort order), then the readings as a table and a chart.
 * The answer is checked against the contract before it is shown: an answer
 * that does not fit gets the spec's "could not prepare" text, not a blank page.
 * Asked for a day (?date=YYYY-MM-DD, a study-health cell's), the form starts
 * on that day, oldest first: its readings come first.
 */
import {
  Alert,
  Button,
  Card,
  Group,
  Input,
  Loader,
  SegmentedControl,
  Select,
  Stack,
  TextInput,
} from '@mantine/core';
import type { Trial } from '@trialwear/contract';
import { DATA_MESSAGES, type OmronQuery, omronDataResultSchema } from '@trialwear/contract';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useOmronData } from '../api/omron-data-api';
import {
  type DataParticipant,
  ParticipantFrame,
  useAskedDate,
  WithParticipant,
} from '../components/participant-frame';
import { dataErrorText } from '../lib/data-error';
import { BloodPressureChart, WeightChart } from './omron-charts';
import {
  CATEGORY_LABEL,
  defaultOmronForm,
  LIMIT_OPTIONS,
  type OmronForm,
  type OmronFormErrors,
  toOmronQuery,
  validateOmronForm,
} from './omron-form';
import { BloodPressureTable, WeightTable } from './omron-readings-table';
import { bloodPressureLines, weightLines } from './omron-series';

export default function OmronParticipantDataPage() {
  const asked = useAskedDate();
  return (
    <WithParticipant>
      {(participant, trial, state) => (
        <OmronData
          participant={participant}
          trial={trial}
          initialCategory={state.category ?? state.subject}
          {...(asked ? { initialDate: asked } : {})}
        />
      )}
    </WithParticipant>
  );
}

/** The card buttons say 'Blood Pressure' or 'Weight'; the state may carry either that or the category. */
const categoryFromState = (c: string | undefined) =>
  c === 'Weight' || c === 'weight' ? 'weight' : c === undefined ? undefined : 'bloodPressure';

function OmronData({
  participant,
  trial,
  initialCategory,
  initialDate,
}: {
  participant: DataParticipant;
  trial: Trial;
  initialCategory?: string;
  /** The day to open (not in the future: then the default start). */
  initialDate?: string;
}) {
  const navigate = useNavigate();
  const [form, setForm] = useState<OmronForm>(() =>
    defaultOmronForm(categoryFromState(initialCategory), new Date(), initialDate),
  );
  const [errors, setErrors] = useState<OmronFormErrors>({});
  // The spec's page opens with its default query already shown.
  const [query, setQuery] = useState<OmronQuery | null>(() => toOmronQuery(form));
  const data = useOmronData(participant.id, query);
  const set = (patch: Partial<OmronForm>) => setForm((f) => ({ ...f, ...patch }));

  const submit = () => {
    const found = validateOmronForm(form);
    setErrors(found);
    if (Object.keys(found).length === 0) setQuery(toOmronQuery(form));
  };

  return (
    <ParticipantFrame
      title="Omron data"
      participant={participant}
      trial={trial}
      rawPage="/OmronParticipantDataRaw"
      actions={
        <Button
          size="xs"
          variant="light"
          onClick={() => navigate('/OmronParticipantOverview', { state: { participant, trial } })}
        >
          Last 7 days overview
        </Button>
      }
    >
      <Card withBorder>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Group align="flex-start" wrap="wrap">
            <Select
              label="Category"
              data={Object.entries(CATEGORY_LABEL).map(([value, label]) => ({ value, label }))}
              value={form.category || null}
              onChange={(v) => set({ category: v ?? '' })}
              clearable
              clearButtonProps={{ 'aria-label': 'Clear category' }}
              error={errors.category}
              w={200}
            />
            <TextInput
              label="Start date"
              type="date"
              value={form.startDate}
              onChange={(e) => set({ startDate: e.currentTarget.value })}
              error={errors.startDate}
              w={180}
            />
            <Select
              label="Results limit"
              data={LIMIT_OPTIONS}
              value={form.limit || null}
              onChange={(v) => set({ limit: v ?? '' })}
              clearable
              clearButtonProps={{ 'aria-label': 'Clear results limit' }}
              error={errors.limit}
              w={160}
            />
            <Input.Wrapper label="Sort order">
              <SegmentedControl
                display="flex"
                aria-label="Sort order"
                value={form.sortOrder}
                onChange={(v) => set({ sortOrder: v as 'asc' | 'desc' })}
                data={[
                  { value: 'asc', label: 'Oldest first' },
                  { value: 'desc', label: 'Newest first' },
                ]}
              />
            </Input.Wrapper>
            <Button type="submit" mt={25} loading={data.isFetching}>
              Show data
            </Button>
          </Group>
        </form>
      </Card>
      {data.isLoading && <Loader aria-label="Loading Omron data" />}
      {data.error && <Alert color="red">{dataErrorText(data.error, DATA_MESSAGES.omronFailed)}</Alert>}
      {data.data && <OmronResult answer={data.data} />}
    </ParticipantFrame>
  );
}

function OmronResult({ answer }: { answer: unknown }) {
  const parsed = useMemo(() => omronDataResultSchema.safeParse(answer), [answer]);
  const result = parsed.success ? parsed.data : null;
  const bp = result?.category === 'bloodPressure' ? (result.bloodPressure ?? []) : null;
  const weight = result?.category === 'weight' ? (result.weight ?? []) : null;
  const bpLines = useMemo(() => (bp ? bloodPressureLines(bp) : null), [bp]);
  const weightLinesData = useMemo(() => (weight ? weightLines(weight) : null), [weight]);
  if (!result) return <Alert color="red">{DATA_MESSAGES.omronPrepareFailed}</Alert>;
  if (bp && bpLines) {
    if (bp.length === 0) return <Alert color="gray">{DATA_MESSAGES.noDataAvailable}</Alert>;
    return (
      <Stack>
        <Card withBorder>
          <BloodPressureChart data={bpLines} />
        </Card>
        <BloodPressureTable rows={bp} />
      </Stack>
    );
  }
  if (!weight || !weightLinesData || weight.length === 0)
    return <Alert color="gray">{DATA_MESSAGES.noDataAvailable}</Alert>;
  return (
    <Stack>
      <Card withBorder>
        <WeightChart data={weightLinesData} />
      </Card>
      <WeightTable rows={weight} />
    </Stack>
  );
}
