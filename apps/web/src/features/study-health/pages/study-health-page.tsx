/*
 * /StudyHealth?trialId=… (issue #23 §6): the trial's participants × last N
 * days heat map of wear (N = 7, 14, 30 or 90 of the trial's local days),
 * each participant's last sync, battery and link, those needing attention
 * first; a cell opens that participant's day. Below: the alerts (acknowledge
 * with a note), the rules (Admins edit) and the signed-in user's digest
 * opt-in. Everything comes from the stored days: no provider is called.
 */
import { Alert, Button, Group, Loader, SegmentedControl, Stack, Switch, Text, Title } from '@mantine/core';
import { TRIAL_MESSAGES, type Trial } from '@trialwear/contract';
import { useCallback, useId, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { displayableMessage } from '../../../lib/api-client';
import { useCurrentTrial } from '../../../lib/current-trial';
import {
  canAcknowledgeHealthAlerts,
  canDownloadHealthReport,
  canEditHealthRules,
} from '../../../lib/permissions';
import { useSession } from '../../../lib/session/session-context';
import {
  healthReportUrl,
  useDigestSubscription,
  useHealthRules,
  useStudyHealth,
  useVisibleTrials,
} from '../api/study-health-api';
import { AlertsList } from '../components/alerts-list';
import { HeatMapLegend } from '../components/heat-map-legend';
import { HeatMapTable } from '../components/heat-map-table';
import { RulesForm } from '../components/rules-form';
import {
  DAY_CHOICES,
  type DayChoice,
  datesOf,
  dayPageOf,
  type HeatRow,
  healthRange,
  heatRows,
  participantPageLink,
} from '../heat-map';

export default function StudyHealthPage() {
  const [params] = useSearchParams();
  const trialId = Number(params.get('trialId'));
  if (!Number.isInteger(trialId) || trialId <= 0) return <Alert color="red">{TRIAL_MESSAGES.notFound}</Alert>;
  return <StudyHealth trialId={trialId} />;
}

/** The trial's name: from the navigation state, else the list of trials the user sees. */
function useTrial(trialId: number, teamId: number | null): Trial | null {
  const fromState = useCurrentTrial();
  const trials = useVisibleTrials(fromState?.trialId === trialId ? null : teamId);
  if (fromState?.trialId === trialId) return fromState;
  return trials.data?.find((t) => t.trialId === trialId) ?? null;
}

function StudyHealth({ trialId }: { trialId: number }) {
  const { session } = useSession();
  const user = session.kind === 'authorized' ? session.user : null;
  const role = user?.role ?? null;
  const trial = useTrial(trialId, user?.team_id ?? null);
  const navigate = useNavigate();
  const [days, setDays] = useState<DayChoice>(14);
  const daysLabelId = useId();
  const rules = useHealthRules(trialId);
  const timezone = rules.data?.timezone;
  const range = useMemo(() => (timezone ? healthRange(timezone, new Date(), days) : null), [timezone, days]);
  const table = useStudyHealth(trialId, range);
  const subscription = useDigestSubscription(trialId);

  const data = table.data;
  const from = data?.from;
  const to = data?.to;
  const dates = useMemo(() => (from && to ? datesOf(from, to) : []), [from, to]);
  const rows = useMemo(() => (data ? heatRows(data.participants, dates) : []), [data, dates]);
  const attention = useMemo(() => rows.filter((r) => r.attention === 0).length, [rows]);

  const participantState = useCallback(
    (row: HeatRow) => ({
      id: row.participant.participantId,
      participant_code: row.participant.participantCode,
    }),
    [],
  );
  // The URL names the participant and the day too, so the page survives a reload or a new tab.
  const onOpenDay = useCallback(
    (row: HeatRow, date: string) =>
      navigate(
        participantPageLink(dayPageOf(row.participant), trialId, row.participant.participantId, date),
        {
          state: { participant: participantState(row), trial, date },
        },
      ),
    [navigate, participantState, trial, trialId],
  );
  const onOpenParticipant = useCallback(
    (row: HeatRow) =>
      navigate(participantPageLink('/ParticipantOverview', trialId, row.participant.participantId), {
        state: { participant: participantState(row), trial },
      }),
    [navigate, participantState, trial, trialId],
  );

  const error = rules.error ?? table.error;
  const writer = canAcknowledgeHealthAlerts(role);

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>
            Study health{trial ? ` — Trial #${trial.trialNumber} - ${trial.trialName}` : ''}
          </Title>
          <Text size="sm" c="dimmed">
            Who stopped wearing their device, whose data is incomplete, whose battery or link is about to
            fail.
            {timezone ? ` Days of the trial's time zone, ${timezone}.` : ''}
          </Text>
        </div>
        {writer && data && (
          <Switch
            label="Send me the daily digest of this trial"
            checked={subscription.isPending ? subscription.variables : data.digestSubscribed}
            onChange={(e) => subscription.mutate(e.currentTarget.checked)}
          />
        )}
      </Group>
      {subscription.error && (
        <Alert color="red" role="alert">
          {displayableMessage(subscription.error)}
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert">
          {displayableMessage(error, TRIAL_MESSAGES.notFound)}
        </Alert>
      )}
      <Group justify="space-between" align="center">
        <Group gap="sm">
          <Text size="sm" fw={600} id={daysLabelId}>
            Days shown
          </Text>
          <SegmentedControl
            aria-labelledby={daysLabelId}
            value={String(days)}
            onChange={(v) => setDays(Number(v) as DayChoice)}
            data={DAY_CHOICES.map((n) => ({ value: String(n), label: `${n} days` }))}
          />
          {table.isFetching && <Loader size="xs" aria-label="Loading" />}
        </Group>
        {data && (
          <Group gap="sm">
            <Text size="sm" role="status">
              {rows.length} participant{rows.length === 1 ? '' : 's'}, {attention} needing attention
            </Text>
            {canDownloadHealthReport(role) && from && to && (
              <Group gap="xs" role="group" aria-label={`Compliance report, ${from} to ${to}`}>
                {(['csv', 'xlsx'] as const).map((format) => (
                  <Button
                    key={format}
                    component="a"
                    href={healthReportUrl(trialId, { from, to }, format)}
                    download
                    size="xs"
                    variant="default"
                  >
                    Download {format.toUpperCase()}
                  </Button>
                ))}
              </Group>
            )}
          </Group>
        )}
      </Group>
      <HeatMapLegend />
      {!data && !error ? (
        <Text size="sm">Loading study health…</Text>
      ) : rows.length === 0 ? (
        data && <Text size="sm">This trial has no participants yet.</Text>
      ) : (
        <HeatMapTable
          key={`${from}/${to}`}
          rows={rows}
          dates={dates}
          onOpenDay={onOpenDay}
          onOpenParticipant={onOpenParticipant}
        />
      )}
      <AlertsList trialId={trialId} canAcknowledge={writer} />
      {rules.data && <RulesForm trialId={trialId} rules={rules.data} editable={canEditHealthRules(role)} />}
    </Stack>
  );
}
