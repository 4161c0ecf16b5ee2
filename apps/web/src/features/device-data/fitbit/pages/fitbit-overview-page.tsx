import { Alert, Button, Stack } from '@mantine/core';
import { DATA_MESSAGES } from '@trialwear/contract';
import { useNavigate } from 'react-router';
import { OverviewTiles } from '../components/overview-tiles';
import { ParticipantHeader } from '../components/participant-header';
import { useFitbitPageState } from '../page-state';
import { useRawShortcut } from '../use-raw-shortcut';

/** /FitbitParticipantOverview: the 7-vs-7 overview tiles of one participant, with a link to the data page. */
export default function FitbitOverviewPage() {
  const page = useFitbitPageState();
  if (!page) return <Alert color="red">{DATA_MESSAGES.participantNotFound}</Alert>;
  return <FitbitOverview {...page} />;
}

function FitbitOverview({ participant, trial }: NonNullable<ReturnType<typeof useFitbitPageState>>) {
  const navigate = useNavigate();
  useRawShortcut(participant, trial);
  const state = { participant, trial };
  return (
    <Stack>
      <ParticipantHeader
        title="Fitbit overview"
        participant={participant}
        trial={trial}
        actions={
          <Button onClick={() => navigate('/FitbitParticipantDataPage', { state })}>More Fitbit data</Button>
        }
      />
      <OverviewTiles
        participant={participant}
        onOpenSubject={(subject) => navigate(`/FitbitParticipantDataPage?subject=${subject}`, { state })}
      />
    </Stack>
  );
}
