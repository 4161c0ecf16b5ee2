/*
 * /FitbitParticipantDataPage (core §2): the participant header and return
 * bar, the device chooser (tracker / scale), the tracker query form, and per
 * query either the overview tiles or a chart and a table per subject.
 * Reached from a device card (state.subject = the button's label), Manage
 * Participant or the overview; the query lives in the URL.
 */
import { Alert, Button, Group, Stack } from '@mantine/core';
import { DATA_MESSAGES } from '@trialwear/contract';
import { useMemo } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { FITBIT_BUTTON_QUERY, isFitbitCardButton } from '../card-buttons';
import { OverviewTiles } from '../components/overview-tiles';
import { ParticipantHeader, type TrackerDevice } from '../components/participant-header';
import { ProviderLimitScope } from '../components/provider-limit';
import { SubjectResult } from '../components/subject-result';
import { TrackerQueryForm } from '../components/tracker-query-form';
import { FITBIT_SUBJECTS, subjectsOf } from '../fitbit-subjects';
import { type FitbitPageState, useFitbitPageState } from '../page-state';
import { todayIn } from '../periods';
import { parseTrackerQuery, queryRange, type TrackerQuery, trackerSearch } from '../tracker-query';
import { useRawShortcut } from '../use-raw-shortcut';

export default function FitbitDataPage() {
  const page = useFitbitPageState();
  if (!page) return <Alert color="red">{DATA_MESSAGES.participantNotFound}</Alert>;
  return <FitbitData {...page} />;
}

function FitbitData({ participant, trial }: NonNullable<ReturnType<typeof useFitbitPageState>>) {
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  useRawShortcut(participant, trial);
  const today = todayIn();

  // A device card's button gives the query when the URL has none.
  const cardButton = (location.state as FitbitPageState | null)?.subject;
  const query: TrackerQuery = useMemo(() => {
    if (!params.has('category') && !params.has('subject') && isFitbitCardButton(cardButton)) {
      const q = FITBIT_BUTTON_QUERY[cardButton];
      return { ...parseTrackerQuery(params), ...q };
    }
    return parseTrackerQuery(params);
  }, [params, cardButton]);
  const device: TrackerDevice = query.category === 'body' ? 'scale' : 'tracker';
  const range = queryRange(query, today);

  const go = (q: TrackerQuery) =>
    navigate({ search: trackerSearch(q) }, { state: { ...location.state, participant, trial } });
  const onDevice = (d: TrackerDevice) =>
    go(
      d === 'scale'
        ? { ...query, category: 'body', subject: 'weight' }
        : { ...query, category: 'overview', subject: null },
    );
  const subjects = query.subject
    ? [query.subject]
    : query.category === 'overview'
      ? []
      : subjectsOf(query.category);
  const state = { participant, trial };

  return (
    <Stack>
      <ParticipantHeader
        title="Fitbit data"
        participant={participant}
        trial={trial}
        device={device}
        onDevice={onDevice}
        actions={
          <Group gap="xs">
            <Button variant="default" onClick={() => navigate('/FitbitParticipant1DayData', { state })}>
              One day
            </Button>
            <Button variant="default" onClick={() => navigate('/FitbitParticipantOverview', { state })}>
              Overview
            </Button>
          </Group>
        }
      />
      <TrackerQueryForm
        key={trackerSearch(query)}
        value={query}
        today={today}
        categories={device === 'scale' ? ['body'] : undefined}
        onSubmit={go}
      />
      {query.category === 'overview' ? (
        <OverviewTiles
          participant={participant}
          onOpenSubject={(subject) => go({ ...query, category: FITBIT_SUBJECTS[subject].category, subject })}
        />
      ) : range ? (
        <ProviderLimitScope brand="Fitbit">
          {subjects.map((s) => (
            <SubjectResult
              key={s}
              participant={participant}
              subject={s}
              start={range.start}
              end={range.end}
            />
          ))}
        </ProviderLimitScope>
      ) : null}
    </Stack>
  );
}
