import { Alert, Stack, Title } from '@mantine/core';
import { PROVIDER_BRAND, PROVIDERS, type Trial } from '@trialwear/contract';
import { useTeamAllowedDevices } from '../api/team-devices-api';
import { ProviderSection } from './provider-section';

/** The Devices Management panel of Manage Participant (core §2): a section per brand the team allows. */
export function DevicesManagement({
  participantId,
  trial,
  teamId,
  isSysAdmin,
}: {
  participantId: number;
  trial: Trial;
  teamId: number | null;
  isSysAdmin: boolean;
}) {
  const brands = useTeamAllowedDevices(teamId);
  const allowed = new Set((brands.data ?? []).map((b) => b.brand_name));
  const providers = PROVIDERS.filter((provider) => allowed.has(PROVIDER_BRAND[provider]));
  return (
    <>
      <Title order={3}>Devices Management</Title>
      {brands.isSuccess && providers.length === 0 && (
        <Alert color="gray">No allowed devices available for this team</Alert>
      )}
      <Stack>
        {providers.map((provider) => (
          <ProviderSection
            key={provider}
            provider={provider}
            participantId={participantId}
            trial={trial}
            isSysAdmin={isSysAdmin}
          />
        ))}
      </Stack>
    </>
  );
}
