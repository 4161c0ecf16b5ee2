/*
 * The scale part of /ParticipantOverview and the whole of
 * /OmronParticipantOverview (core §2): blood pressure and weight of the last
 * 7 days as line charts, 'No data to display' when there is none.
 */
import { Alert, Button, Card, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { DATA_MESSAGES, omronDataResultSchema, type Trial } from '@trialwear/contract';
import { useNavigate } from 'react-router';
import { useOmronData } from '../api/omron-data-api';
import type { DataParticipant } from '../components/participant-frame';
import { dataErrorText } from '../lib/data-error';
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
  let body: React.ReactNode;
  if (q.isLoading) body = <Loader size="sm" aria-label={`Loading ${title}`} />;
  else if (q.error) body = <Alert color="red">{dataErrorText(q.error, DATA_MESSAGES.omronFailed)}</Alert>;
  else {
    const parsed = omronDataResultSchema.safeParse(q.data);
    if (!parsed.success) body = <Alert color="red">{DATA_MESSAGES.omronPrepareFailed}</Alert>;
    else {
      const bp = parsed.data.bloodPressure ?? [];
      const w = parsed.data.weight ?? [];
      if (category === 'bloodPressure')
        body = bp.length ? <BloodPressureChart data={bloodPressureLines(bp)} /> : <NoData />;
      else body = w.length ? <WeightChart data={weightLines(w)} /> : <NoData />;
    }
  }
  return (
    <Stack gap="xs">
      <Text fw={500}>{title}</Text>
      {body}
    </Stack>
  );
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
