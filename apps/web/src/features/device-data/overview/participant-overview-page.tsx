/*
 * /ParticipantOverview (core §2, from one selected row of the trial page): a
 * section per provider the participant has authorized, each with a link to
 * more data. /OmronParticipantOverview is the Omron section alone.
 */
import { Alert, Loader, Stack } from '@mantine/core';
import { PROVIDERS, type Provider, type Trial } from '@trialwear/contract';
import type { ReactNode } from 'react';
import { useLinkStatus } from '../../device-links';
import { type DataParticipant, ParticipantFrame, WithParticipant } from '../components/participant-frame';
import { DexcomSection } from './dexcom-section';
import { FitbitSection } from './fitbit-section';
import { OmronSection } from './omron-section';

export default function ParticipantOverviewPage() {
  return (
    <WithParticipant>
      {(participant, trial) => (
        <ParticipantFrame
          title="Participant overview"
          participant={participant}
          trial={trial}
          rawPage="/ParticipantRaw"
        >
          <LinkedSections participant={participant} trial={trial} />
        </ParticipantFrame>
      )}
    </WithParticipant>
  );
}

export function OmronParticipantOverviewPage() {
  return (
    <WithParticipant>
      {(participant, trial) => (
        <ParticipantFrame
          title="Omron overview"
          participant={participant}
          trial={trial}
          rawPage="/OmronParticipantDataRaw"
        >
          <OmronSection participant={participant} trial={trial} />
        </ParticipantFrame>
      )}
    </WithParticipant>
  );
}

const SECTION: Record<Provider, (p: { participant: DataParticipant; trial: Trial }) => ReactNode> = {
  fitbit: FitbitSection,
  omron: OmronSection,
  dexcom: DexcomSection,
};

/** One link-status call per provider, in parallel; a section appears once its provider is known to be authorized. */
function LinkedSections({ participant, trial }: { participant: DataParticipant; trial: Trial }) {
  const statuses = {
    fitbit: useLinkStatus('fitbit', participant.id),
    omron: useLinkStatus('omron', participant.id),
    dexcom: useLinkStatus('dexcom', participant.id),
  };
  const loading = PROVIDERS.some((p) => statuses[p].isLoading);
  const linked = PROVIDERS.filter((p) => statuses[p].data?.status === 'authorized');
  return (
    <Stack>
      {linked.map((p) => {
        const Section = SECTION[p];
        return <Section key={p} participant={participant} trial={trial} />;
      })}
      {loading && <Loader size="sm" aria-label="Loading linked devices" />}
      {!loading && linked.length === 0 && (
        <Alert color="gray">This participant has no linked device yet.</Alert>
      )}
    </Stack>
  );
}
