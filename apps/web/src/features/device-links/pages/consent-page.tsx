import { Alert, Button, List, Text } from '@mantine/core';
import { LINK_MESSAGES, PROVIDER_BRAND, type Provider } from '@trialwear/contract';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { CenteredCard } from '../../../components/centered-card';
import { displayableMessage } from '../../../lib/api-client';
import { authorizeUrl } from '../api/device-links-api';

/**
 * The participant-facing page of the emailed link (/PAFitbitConsentPage, with
 * provider=dexcom for the Dexcom variant; /OmronConsentPage): it sends the
 * browser to the provider's authorize page.
 */
export function ConsentPage({ provider: fixed }: { provider?: Provider }) {
  const [params] = useSearchParams();
  const provider: Provider = fixed ?? (params.get('provider') === 'dexcom' ? 'dexcom' : 'fitbit');
  const brand = PROVIDER_BRAND[provider];
  const id = params.get('id') ?? '';
  const t = params.get('t') ?? '';
  const [error, setError] = useState<string | null>(id ? null : 'This consent link is not complete.');
  const [going, setGoing] = useState(false);
  const go = async () => {
    setGoing(true);
    try {
      window.location.assign((await authorizeUrl(provider, id, t)).url);
    } catch (err) {
      setGoing(false);
      setError(displayableMessage(err, LINK_MESSAGES.invalidState));
    }
  };
  return (
    <CenteredCard
      title={`Share your ${brand} data with your study`}
      intro="Your study team uses TrialWear to collect the data of the devices you agreed to share."
    >
      <List size="sm">
        <List.Item>You will sign in at {brand} and see what the study asks for.</List.Item>
        <List.Item>Choose Allow to share, or Deny to decline.</List.Item>
        <List.Item>You can stop sharing at any time.</List.Item>
      </List>
      <Text size="xs" c="dimmed">
        Personal health information must not be entered anywhere in this process; data is stored
        de-identified.
      </Text>
      {error && <Alert color="red">{error}</Alert>}
      <Button onClick={go} loading={going} disabled={!id}>
        Continue to {brand}
      </Button>
    </CenteredCard>
  );
}

export default function FitbitOrDexcomConsentPage() {
  return <ConsentPage />;
}
