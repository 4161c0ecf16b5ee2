import { Alert, Stack } from '@mantine/core';
import { DATA_MESSAGES } from '@trialwear/contract';
import { useNavigate, useSearchParams } from 'react-router';
import { ParticipantHeader } from '../components/participant-header';
import { TrackerQueryForm } from '../components/tracker-query-form';
import { useFitbitPageState } from '../page-state';
import { todayIn } from '../periods';
import { parseTrackerQuery, trackerSearch } from '../tracker-query';

/** /FitbitParticipantDataForm: the tracker query alone; submitting opens the data page with it. */
export default function FitbitDataFormPage() {
  const page = useFitbitPageState();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  if (!page) return <Alert color="red">{DATA_MESSAGES.participantNotFound}</Alert>;
  return (
    <Stack>
      <ParticipantHeader title="Fitbit data query" participant={page.participant} trial={page.trial} />
      <TrackerQueryForm
        value={parseTrackerQuery(params)}
        today={todayIn()}
        onSubmit={(q) =>
          navigate(`/FitbitParticipantDataPage${trackerSearch(q)}`, {
            state: { participant: page.participant, trial: page.trial },
          })
        }
      />
    </Stack>
  );
}
