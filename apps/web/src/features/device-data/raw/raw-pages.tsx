/*
 * The Sys_Admin raw pages (issue #10 item 9): /FitbitParticipantDataRaw,
 * /OmronParticipantDataRaw, /DexcomParticipantDataRaw (one provider each),
 * /ParticipantRaw (choose among the participant's linked providers) and
 * /ParticipantDataPage (from an errored device card: link status and device
 * list per provider, then raw reads to diagnose the error).
 */
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  SegmentedControl,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { PROVIDER_BRAND, PROVIDERS, type Provider, type Trial } from '@trialwear/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useDevices, useLinkStatus } from '../../device-links';
import { type DataParticipant, ParticipantFrame, WithParticipant } from '../components/participant-frame';
import { dataErrorText } from '../lib/data-error';
import { JsonBlock } from './raw-answer';
import { RawDataPanel } from './raw-data-panel';

export const RAW_PAGE: Record<Provider, string> = {
  fitbit: '/FitbitParticipantDataRaw',
  omron: '/OmronParticipantDataRaw',
  dexcom: '/DexcomParticipantDataRaw',
};

function ProviderRawPage({ provider }: { provider: Provider }) {
  return (
    <WithParticipant>
      {(participant, trial) => (
        <ParticipantFrame
          title={`${PROVIDER_BRAND[provider]} raw data`}
          participant={participant}
          trial={trial}
        >
          <RawDataPanel participantId={participant.id} provider={provider} />
        </ParticipantFrame>
      )}
    </WithParticipant>
  );
}

export const FitbitRawPage = () => <ProviderRawPage provider="fitbit" />;
export const OmronRawPage = () => <ProviderRawPage provider="omron" />;
export const DexcomRawPage = () => <ProviderRawPage provider="dexcom" />;

function useLinkedProviders(participantId: number) {
  const statuses = {
    fitbit: useLinkStatus('fitbit', participantId),
    omron: useLinkStatus('omron', participantId),
    dexcom: useLinkStatus('dexcom', participantId),
  };
  return {
    statuses,
    loading: PROVIDERS.some((p) => statuses[p].isLoading),
    linked: PROVIDERS.filter((p) => statuses[p].data?.status === 'authorized'),
  };
}

export function ParticipantRawPage() {
  return (
    <WithParticipant>
      {(participant, trial) => (
        <ParticipantFrame title="Participant raw data" participant={participant} trial={trial}>
          <ChooseProvider participant={participant} trial={trial} />
        </ParticipantFrame>
      )}
    </WithParticipant>
  );
}

function ChooseProvider({ participant, trial }: { participant: DataParticipant; trial: Trial }) {
  const navigate = useNavigate();
  const { loading, linked } = useLinkedProviders(participant.id);
  if (loading) return <Loader size="sm" aria-label="Loading linked devices" />;
  if (linked.length === 0) return <Alert color="gray">This participant has no linked device yet.</Alert>;
  return (
    <Card withBorder>
      <Text mb="sm">Choose the provider whose raw answers to read:</Text>
      <Group>
        {linked.map((p) => (
          <Button
            key={p}
            variant="light"
            onClick={() => navigate(RAW_PAGE[p], { state: { participant, trial } })}
          >
            {PROVIDER_BRAND[p]} raw data
          </Button>
        ))}
      </Group>
    </Card>
  );
}

export function ParticipantDataPage() {
  return (
    <WithParticipant>
      {(participant, trial) => (
        <ParticipantFrame title="Participant data" participant={participant} trial={trial}>
          <Diagnose participant={participant} />
        </ParticipantFrame>
      )}
    </WithParticipant>
  );
}

function Diagnose({ participant }: { participant: DataParticipant }) {
  const { statuses } = useLinkedProviders(participant.id);
  const [provider, setProvider] = useState<Provider>('fitbit');
  return (
    <Stack>
      <Card withBorder>
        <Text fw={600} mb="xs">
          Link status
        </Text>
        <Table withTableBorder aria-label="Link status">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Provider</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Authorized on</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {PROVIDERS.map((p) => {
              const s = statuses[p];
              return (
                <Table.Tr key={p}>
                  <Table.Td>{PROVIDER_BRAND[p]}</Table.Td>
                  <Table.Td>
                    {s.isLoading ? (
                      <Loader size="xs" />
                    ) : s.error ? (
                      <Text c="red">{dataErrorText(s.error, 'An error occurred')}</Text>
                    ) : (
                      <Badge color={s.data?.status === 'authorized' ? 'teal' : 'gray'} variant="light">
                        {s.data?.status}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{s.data?.authorizationDate?.slice(0, 10) ?? '—'}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Card>
      <SegmentedControl
        aria-label="Provider"
        value={provider}
        onChange={(v) => setProvider(v as Provider)}
        data={PROVIDERS.map((p) => ({ value: p, label: PROVIDER_BRAND[p] }))}
        w="fit-content"
      />
      <DeviceListAnswer key={`devices-${provider}`} participantId={participant.id} provider={provider} />
      <RawDataPanel key={provider} participantId={participant.id} provider={provider} />
    </Stack>
  );
}

/** The portal's device-list answer for the provider (the card's source), error entries included. */
function DeviceListAnswer({ participantId, provider }: { participantId: number; provider: Provider }) {
  const devices = useDevices(provider, participantId);
  return (
    <Card withBorder>
      {devices.isLoading && <Loader size="sm" aria-label="Loading device list" />}
      {devices.error && (
        <Alert color="red">Error loading devices: {dataErrorText(devices.error, 'An error occurred')}</Alert>
      )}
      {devices.data && <JsonBlock value={devices.data} label={`${PROVIDER_BRAND[provider]} device list`} />}
    </Card>
  );
}
