import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import type { SessionUser } from '@trialwear/contract';
import { useNavigate } from 'react-router';
import { useSession } from '../../../lib/session/session-context';
import { useResetSecondFactor } from '../../sfa';

export function ProfileMenu({ user }: { user: SessionUser }) {
  const { logout } = useSession();
  const resetSecondFactor = useResetSecondFactor();
  const navigate = useNavigate();
  const initials = `${user.first_name[0] ?? ''}${user.last_name[0] ?? ''}`.toUpperCase();
  return (
    <Menu position="bottom-end" width={260} shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label={`Profile menu for ${user.userName}`}>
          <Group gap="xs">
            <Avatar color="teal" radius="xl" size="sm">
              {initials}
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="sm">
              {user.first_name} {user.last_name}
            </Text>
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
        <Menu.Item onClick={resetSecondFactor}>Reset Second Factor</Menu.Item>
        <Menu.Item color="red" onClick={() => logout().then(() => navigate('/LoginPage'))}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
