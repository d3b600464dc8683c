import type { AdminUserDetail } from '@locus/contract';
import {
  Alert,
  Badge,
  Button,
  Card,
  Drawer,
  Group,
  Loader,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { RemoveFromTeam, RoleSelect } from './MemberActions';
import { failureMessage, useUnlock, useUserDetail } from './queries';
import { formatDateTime, fullName } from './format';

function Facts({ user }: { user: AdminUserDetail }) {
  return (
    <Stack gap={4} component="dl" m={0}>
      <Group gap="xs">
        <Text component="dt" fw={600} size="sm">
          Email
        </Text>
        <Text component="dd" m={0} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {user.email}
        </Text>
      </Group>
      <Group gap="xs">
        <Text component="dt" fw={600} size="sm">
          Email confirmed
        </Text>
        <Text component="dd" m={0} size="sm">
          {user.emailConfirmed ? 'Yes' : 'No, the invitation or confirmation link is not used yet'}
        </Text>
      </Group>
      <Group gap="xs">
        <Text component="dt" fw={600} size="sm">
          Last sign-in
        </Text>
        <Text component="dd" m={0} size="sm">
          {user.lastSignInAt ? formatDateTime(user.lastSignInAt) : 'Never'}
        </Text>
      </Group>
      <Group gap="xs">
        <Text component="dt" fw={600} size="sm">
          Registered
        </Text>
        <Text component="dd" m={0} size="sm">
          {formatDateTime(user.createdAt)}
        </Text>
      </Group>
      {user.phoneNumber && (
        <Group gap="xs">
          <Text component="dt" fw={600} size="sm">
            Phone
          </Text>
          <Text component="dd" m={0} size="sm">
            {user.phoneNumber}
          </Text>
        </Group>
      )}
    </Stack>
  );
}

function LockState({ user, onError }: { user: AdminUserDetail; onError: (m: string) => void }) {
  const unlock = useUnlock();
  if (!user.locked) {
    return (
      <Text size="sm">
        <Text span fw={600}>
          Sign-in:
        </Text>{' '}
        not locked
      </Text>
    );
  }
  return (
    <Alert color="orange" title="Locked out" role="status">
      <Stack gap="xs">
        <Text size="sm">
          Too many failed sign-ins. The lock lifts by itself after ten minutes, or now:
        </Text>
        <Button
          w="fit-content"
          loading={unlock.isPending}
          onClick={() =>
            unlock.mutate(user.id, {
              onSuccess: () =>
                notifications.show({
                  closeButtonProps: { 'aria-label': 'Close notice' },
                  color: 'green',
                  message: `${fullName(user)} can sign in again.`,
                }),
              onError: (error) => onError(failureMessage(error)),
            })
          }
        >
          Unlock
        </Button>
      </Stack>
    </Alert>
  );
}

/** A user's detail: teams and roles, confirmation, last sign-in, the lock; change or remove. */
export function UserDrawer({ userId, onClose }: { userId: string | null; onClose: () => void }) {
  const detail = useUserDetail(userId);
  const [error, setError] = useState<string | null>(null);
  const user = detail.data;
  const close = () => {
    setError(null);
    onClose();
  };
  return (
    <Drawer
      opened={userId !== null}
      onClose={close}
      position="right"
      size="md"
      title={user ? fullName(user) : 'User'}
      closeButtonProps={{ 'aria-label': 'Close details' }}
    >
      {detail.isPending && <Loader size="sm" aria-label="Loading the user" />}
      {detail.isError && (
        <Alert color="red" role="alert">
          This user could not be loaded: {failureMessage(detail.error)}
        </Alert>
      )}
      {user && (
        <Stack>
          {error && (
            <Alert color="red" role="alert" title="Not changed">
              {error}
            </Alert>
          )}
          {user.isPlatformAdmin && (
            <Badge variant="filled" color="grape.9" w="fit-content">
              Platform admin
            </Badge>
          )}
          <Facts user={user} />
          <LockState user={user} onError={setError} />
          <Title order={3} size="h5">
            Teams
          </Title>
          {user.teams.length === 0 && <Text size="sm">Not on any team you manage.</Text>}
          {user.teams.map((team) => {
            const member = {
              userId: user.id,
              name: fullName(user),
              teamId: team.teamId,
              teamName: team.teamName,
              role: team.role,
            };
            return (
              <Card key={team.teamId} withBorder padding="sm">
                <Stack gap="xs">
                  <Text fw={600}>{team.teamName}</Text>
                  <Group align="flex-end" gap="sm">
                    <RoleSelect member={member} onError={setError} />
                    <RemoveFromTeam
                      member={member}
                      onError={setError}
                      onRemoved={() => {
                        // Their last team you manage: they are no longer yours to see.
                        if (user.teams.length === 1) close();
                      }}
                    />
                  </Group>
                </Stack>
              </Card>
            );
          })}
        </Stack>
      )}
    </Drawer>
  );
}
