import {
  Alert,
  Avatar,
  Button,
  Group,
  Menu,
  Modal,
  Stack,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { GENERIC_ERRORS, SESSION_MESSAGES, type SessionUser } from '@trialwear/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { displayableMessage } from '../../../lib/api-client';
import { logoutEverywhere } from '../../../lib/session/session-api';
import { useSession } from '../../../lib/session/session-context';
import { ResetSecondFactorModal } from '../../sfa';

export function ProfileMenu({ user }: { user: SessionUser }) {
  const { logout } = useSession();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<'none' | 'resetSfa' | 'logoutEverywhere'>('none');
  const initials = `${user.first_name[0] ?? ''}${user.last_name[0] ?? ''}`.toUpperCase();
  return (
    <>
      <Menu position="bottom-end" width={260} shadow="md">
        <Menu.Target>
          {/* WCAG 2.5.3 (label in name): named by its content, the visible name first; the initials are decoration. */}
          <UnstyledButton>
            <Group gap="xs">
              <Avatar color="teal" radius="xl" size="sm" aria-hidden>
                {initials}
              </Avatar>
              <Text size="sm" fw={500} visibleFrom="sm">
                {user.first_name} {user.last_name}
              </Text>
              <VisuallyHidden>Profile menu</VisuallyHidden>
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Signed in as</Menu.Label>
          <div style={{ padding: '4px 12px 8px' }}>
            <Text size="sm" fw={600}>
              {user.first_name} {user.last_name}
            </Text>
            <Text size="xs" c="dimmed">
              {user.userName}
            </Text>
            <Text size="xs" mt={6}>
              Team: <b>{user.team_name ?? '—'}</b>
            </Text>
            <Text size="xs">
              Role: <b>{user.role ?? '—'}</b>
            </Text>
          </div>
          {/* Switching among the user's teams arrives with the identity issue (GET /userTeamsData, POST /selectTeam). */}
          <Menu.Divider />
          <Menu.Item onClick={() => navigate('/ChangePwdReqPage')}>Change Password</Menu.Item>
          <Menu.Item onClick={() => setDialog('resetSfa')}>Reset Second Factor</Menu.Item>
          <Menu.Divider />
          <Menu.Item onClick={() => setDialog('logoutEverywhere')}>Log out everywhere</Menu.Item>
          <Menu.Item color="red" onClick={() => logout().then(() => navigate('/LoginPage'))}>
            Logout
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ResetSecondFactorModal opened={dialog === 'resetSfa'} onClose={() => setDialog('none')} />
      <LogoutEverywhereModal opened={dialog === 'logoutEverywhere'} onClose={() => setDialog('none')} />
    </>
  );
}

/** "Log out everywhere": every session of the account ends, this one included. */
function LogoutEverywhereModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { logout } = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await logoutEverywhere();
    } catch (err) {
      setError(displayableMessage(err, GENERIC_ERRORS.anError));
      setBusy(false);
      return;
    }
    setBusy(false);
    onClose();
    await logout(SESSION_MESSAGES.loggedOutEverywhere);
    navigate('/LoginPage', { replace: true });
  };
  return (
    <Modal opened={opened} onClose={close} title="Log out everywhere?" centered>
      <Stack>
        <Text size="sm">{SESSION_MESSAGES.logoutEverywhereConfirm}</Text>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button color="red" loading={busy} onClick={confirm}>
            Log out everywhere
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
