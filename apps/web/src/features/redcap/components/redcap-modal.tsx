import { Modal, Tabs } from '@mantine/core';

import { ConnectionPanel } from './connection-panel';
import { EnrolPanel } from './enrol-panel';
import { PushPanel } from './push-panel';

/**
 * A trial's REDCap section (decision 048): the connection (Admin), pushing
 * daily summaries and the push log (Admin), and enrolling the project's
 * records as participants (whoever may add participants).
 */
export function RedcapModal({
  trialId,
  admin,
  onClose,
}: {
  trialId: number;
  admin: boolean;
  onClose: () => void;
}) {
  return (
    <Modal opened onClose={onClose} title="REDCap" centered size="xl">
      <Tabs defaultValue={admin ? 'connection' : 'enrol'} keepMounted={false}>
        <Tabs.List>
          {admin && <Tabs.Tab value="connection">Connection</Tabs.Tab>}
          {admin && <Tabs.Tab value="push">Push daily summaries</Tabs.Tab>}
          <Tabs.Tab value="enrol">Enrol from REDCap</Tabs.Tab>
        </Tabs.List>
        {admin && (
          <Tabs.Panel value="connection" pt="md">
            <ConnectionPanel trialId={trialId} />
          </Tabs.Panel>
        )}
        {admin && (
          <Tabs.Panel value="push" pt="md">
            <PushPanel trialId={trialId} />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="enrol" pt="md">
          <EnrolPanel trialId={trialId} />
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}
