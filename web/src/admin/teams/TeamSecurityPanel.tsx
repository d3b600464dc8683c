import type { Team, TeamSecurity } from '@locus/contract';
import { Alert, Button, Card, Group, NumberInput, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, expect } from '../../app/api';

const securityKey = (teamId: string) => ['team-security', teamId] as const;

/**
 * A team's security policy, for its admins: require two-step sign-in of every member, and the
 * console's idle timeout (empty: the deployment's default, 30 minutes unless configured).
 */
export function TeamSecurityPanel({ team }: { team: Team }) {
  const headingId = useId();
  const queryClient = useQueryClient();
  const security = useQuery({
    queryKey: securityKey(team.id),
    queryFn: async () =>
      expect(await api.authSessions.teamSecurity({ params: { id: team.id } }), 200),
  });
  const [minutes, setMinutes] = useState<string | number | null>(null);
  const save = useMutation({
    mutationFn: async (patch: Partial<TeamSecurity>) =>
      expect(await api.authSessions.setTeamSecurity({ params: { id: team.id }, body: patch }), 200),
    onSuccess: (saved) => {
      queryClient.setQueryData(securityKey(team.id), saved);
      setMinutes(null);
      notifications.show({ message: 'Security settings saved', color: 'green' });
    },
  });
  const shownMinutes = minutes ?? security.data?.idleTimeoutMinutes ?? '';

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          Security
        </Title>
        {security.isError && (
          <Alert color="red" role="alert">
            The team’s security settings could not be loaded.
          </Alert>
        )}
        {security.data && (
          <>
            <Switch
              label="Require two-step sign-in"
              description="Members set up an authenticator app before they can use the console."
              checked={security.data.requireMfa}
              disabled={save.isPending}
              onChange={(event) => save.mutate({ requireMfa: event.currentTarget.checked })}
            />
            <form
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                save.mutate({
                  idleTimeoutMinutes: shownMinutes === '' ? null : Number(shownMinutes),
                });
              }}
            >
              <Group align="flex-end">
                <NumberInput
                  label="Sign out after inactivity (minutes)"
                  description="Empty: the default of your deployment."
                  min={1}
                  max={720}
                  allowDecimal={false}
                  value={shownMinutes}
                  onChange={setMinutes}
                  w={260}
                />
                <Button type="submit" variant="default" loading={save.isPending}>
                  Save
                </Button>
              </Group>
            </form>
          </>
        )}
        {save.isError && (
          <Alert color="red" role="alert">
            <Text size="sm">The setting could not be saved. Please try again.</Text>
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
