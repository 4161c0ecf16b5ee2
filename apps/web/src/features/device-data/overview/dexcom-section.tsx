/* The glucose part of /ParticipantOverview: the last 7 days' summary and a link to the glucose page. */
import { Alert, Button, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { DATA_MESSAGES, glucoseSummary, type Trial } from '@trialwear/contract';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useDexcomEgvs } from '../api/dexcom-data-api';
import type { DataParticipant } from '../components/participant-frame';
import { DEFAULT_GLUCOSE_DAYS, egvReadings, GlucoseSummaryCard, glucoseWindow } from '../dexcom';
import { dataErrorText, isNoData } from '../lib/data-error';

export function DexcomSection({ participant, trial }: { participant: DataParticipant; trial: Trial }) {
  const navigate = useNavigate();
  const [window] = useState(() => glucoseWindow(DEFAULT_GLUCOSE_DAYS));
  const egvs = useDexcomEgvs(participant.id, window);
  const values = useMemo(() => egvReadings(egvs.data?.series).map((r) => r.value), [egvs.data]);
  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <div>
            <Text fw={600}>Glucose monitor</Text>
            <Text size="sm" c="dimmed">
              Dexcom · last 7 days
            </Text>
          </div>
          <Button
            variant="light"
            size="xs"
            onClick={() => navigate('/DexcomParticipantDataPage', { state: { participant, trial } })}
          >
            More glucose data
          </Button>
        </Group>
        {egvs.isLoading && <Loader size="sm" aria-label="Loading glucose data" />}
        {egvs.error && !isNoData(egvs.error) && (
          <Alert color="red">{dataErrorText(egvs.error, DATA_MESSAGES.dexcomFailed)}</Alert>
        )}
        {(isNoData(egvs.error) || (egvs.data && values.length === 0)) && (
          <Text c="dimmed">{DATA_MESSAGES.noDataToDisplay}</Text>
        )}
        {values.length > 0 && (
          <GlucoseSummaryCard
            summary={glucoseSummary(values, DEFAULT_GLUCOSE_DAYS)}
            days={DEFAULT_GLUCOSE_DAYS}
          />
        )}
      </Stack>
    </Card>
  );
}
