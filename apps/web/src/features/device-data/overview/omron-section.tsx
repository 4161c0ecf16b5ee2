/*
 * The scale part of /ParticipantOverview and the whole of
 * /OmronParticipantOverview (core §2): blood pressure and weight of the last
 * 7 days as line charts, 'No data to display' when there is none.
 */
import { Alert, Button, Card, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { DATA_MESSAGES, omronDataResultSchema, type Trial } from '@trialwear/contract';
import { type ReactNode, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useOmronData } from '../api/omron-data-api';
import type { DataParticipant } from '../components/participant-frame';
import { dataErrorText, isNoData } from '../lib/data-error';
import { daysAgo } from '../lib/local-dates';
import { BloodPressureChart, bloodPressureLines, WeightChart, weightLines } from '../omron';

function LastWeek({
  participantId,
  category,
}: {
  participantId: number;
  category: 'bloodPressure' | 'weight';
}) {
  const q = useOmronData(participantId, { category, since: daysAgo(7), sortOrder: 'asc', limit: 0 });
  const title = category === 'bloodPressure' ? 'Blood pressure (mmHg)' : 'Weight (Lbs)';
  const parsed = useMemo(() => (q.data ? omronDataResultSchema.safeParse(q.data) : null), [q.data]);
  const lines = useMemo(() => {
    if (!parsed?.success) return null;
    return category === 'bloodPressure'
      ? bloodPressureLines(parsed.data.bloodPressure ?? [])
      : weightLines(parsed.data.weight ?? []);
  }, [parsed, category]);
  let body: ReactNode;
  if (q.isLoading) body = <Loader size="sm" aria-label={`Loading ${title}`} />;
  else if (isNoData(q.error)) body = <NoData />;
  else if (q.error) body = <Alert color="red">{dataErrorText(q.error, DATA_MESSAGES.omronFailed)}</Alert>;
  else if (!lines) body = <Alert color="red">{DATA_MESSAGES.omronPrepareFailed}</Alert>;
  else if (lines.x.length === 0) body = <NoData />;
  else
    body =
      category === 'bloodPressure' ? (
        <BloodPressureChart data={lines} title={title} />
      ) : (
        <WeightChart data={lines} title={title} />
      );
  return <Stack gap="xs">{body}</Stack>;
}

const NoData = () => <Text c="dimmed">{DATA_MESSAGES.noDataToDisplay}</Text>;

export function OmronSection({ participant, trial }: { participant: DataParticipant; trial: Trial }) {
  const navigate = useNavigate();
  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <div>
            <Text fw={600}>Scale and blood pressure</Text>
            <Text size="sm" c="dimmed">
              Omron · last 7 days
            </Text>
          </div>
          <Button
            variant="light"
            size="xs"
            onClick={() => navigate('/OmronParticipantDataPage', { state: { participant, trial } })}
          >
            More Omron data
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <LastWeek participantId={participant.id} category="bloodPressure" />
          <LastWeek participantId={participant.id} category="weight" />
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
