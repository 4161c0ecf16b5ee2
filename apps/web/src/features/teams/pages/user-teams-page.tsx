/*
 * /UserTeams (content left open by the spec): the teams the user belongs to,
 * each with the user's role in it, the session's team marked; switching
 * changes the session's team on the server, then goes to the dashboard.
 */
import { Alert, Badge, Button, Stack, Table, Text, Title } from '@mantine/core';
import type { UserTeam } from '@trialwear/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { displayableMessage } from '../../../lib/api-client';
import { useSession } from '../../../lib/session/session-context';
import { selectTeam, useUserTeams } from '../api/teams-api';

export default function UserTeamsPage() {
  const { session, reload } = useSession();
  const navigate = useNavigate();
  const user = session.kind === 'authorized' ? session.user : null;
  const teams = useUserTeams(user?.id ?? 0);
  const [switching, setSwitching] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!user) return null;

  const switchTo = async (team: UserTeam) => {
    setSwitching(team.team_id);
    setError(null);
    try {
      await selectTeam(team);
      await reload();
      navigate('/');
    } catch (err) {
      setError(displayableMessage(err, 'Could not switch team.'));
    } finally {
      setSwitching(null);
    }
  };

  return (
    <Stack>
      <div>
        <Title order={2}>Teams</Title>
        <Text c="dimmed" size="sm">
          The teams you belong to and your role in each. Your role and the trials you see follow the team you
          work in.
        </Text>
      </div>
      {teams.error && (
        <Alert color="red">{displayableMessage(teams.error, 'Could not load your teams.')}</Alert>
      )}
      {error && <Alert color="red">{error}</Alert>}
      <Table aria-label="Teams" striped withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Team</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {teams.isLoading && (
            <Table.Tr>
              <Table.Td colSpan={3}>Loading…</Table.Td>
            </Table.Tr>
          )}
          {teams.data?.map((team) => {
            const current = team.team_id === user.team_id;
            return (
              <Table.Tr key={team.team_id}>
                <Table.Td>{team.team_name}</Table.Td>
                <Table.Td>{team.role}</Table.Td>
                <Table.Td>
                  {current ? (
                    <Badge variant="light">Current team</Badge>
                  ) : (
                    <Button
                      size="compact-sm"
                      variant="light"
                      loading={switching === team.team_id}
                      disabled={switching !== null}
                      onClick={() => switchTo(team)}
                    >
                      Switch to {team.team_name}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
