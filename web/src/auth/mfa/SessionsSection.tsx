import type { AuthSessionSummary } from '@locus/contract';
import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, expect } from '../../app/api';

export const sessionsQueryKey = ['auth-sessions'] as const;

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const browsers: [string, RegExp][] = [
  ['Edge', /Edg\//],
  ['Firefox', /Firefox\//],
  ['Chrome', /Chrome\//],
  ['Safari', /Safari\//],
];
const systems: [string, RegExp][] = [
  ['Windows', /Windows/],
  ['macOS', /Mac OS X/],
  ['Android', /Android/],
  ['iOS', /iPhone|iPad/],
  ['Linux', /Linux/],
];
const firstMatch = (list: [string, RegExp][], text: string) =>
  list.find(([, pattern]) => pattern.test(text))?.[0];

/** "Chrome on Windows" is enough to tell sessions apart; the full agent string is not. */
function describeClient(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const browser = firstMatch(browsers, userAgent) ?? 'Browser';
  const system = firstMatch(systems, userAgent);
  return system ? `${browser} on ${system}` : browser;
}

function SessionRow({ session }: { session: AuthSessionSummary }) {
  return (
    <li>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {describeClient(session.userAgent)}
            {session.current && (
              <Badge ml="xs" size="sm" variant="light">
                This session
              </Badge>
            )}
          </Text>
          <Text size="xs" c="dimmed">
            Last active {when(session.lastActiveAt)} · signed in {when(session.createdAt)}
            {session.ipAddress ? ` · ${session.ipAddress}` : ''}
          </Text>
        </Stack>
      </Group>
    </li>
  );
}

/** The profile's list of the user's active sessions, and "Sign out other sessions" (ASVS 3.3). */
export function SessionsSection() {
  const queryClient = useQueryClient();
  const sessions = useQuery({
    queryKey: sessionsQueryKey,
    queryFn: async () => expect(await api.authSessions.list(), 200),
  });
  const signOutOthers = useMutation({
    mutationFn: async () => expect(await api.authSessions.signOutOthers(), 200),
    onSuccess: async ({ revoked }) => {
      notifications.show({
        message:
          revoked === 1 ? 'Signed out 1 other session' : `Signed out ${revoked} other sessions`,
        color: 'green',
      });
      await queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
    },
  });
  const others = sessions.data?.filter((session) => !session.current).length ?? 0;

  return (
    <Stack gap="xs" component="section" aria-labelledby="sessions-heading">
      <Title order={3} size="h5" id="sessions-heading">
        Active sessions
      </Title>
      {sessions.isPending && <Text size="sm">Loading…</Text>}
      {sessions.isError && (
        <Alert color="red" role="alert">
          Your sessions could not be loaded.
        </Alert>
      )}
      {sessions.data && (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {sessions.data.map((session) => (
            <SessionRow key={session.id} session={session} />
          ))}
        </Stack>
      )}
      {signOutOthers.isError && (
        <Alert color="red" role="alert">
          The other sessions could not be signed out. Please try again.
        </Alert>
      )}
      <Group justify="flex-end">
        <Button
          variant="default"
          onClick={() => signOutOthers.mutate()}
          loading={signOutOthers.isPending}
          disabled={others === 0 || signOutOthers.isPending}
        >
          Sign out other sessions
        </Button>
      </Group>
    </Stack>
  );
}
