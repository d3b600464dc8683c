import { zodResolver } from '@hookform/resolvers/zod';
import {
  CompleteUscgRegistrationBody,
  type CurrentUser,
  type PendingUscgUser,
} from '@locus/contract';
import { registrationStateFor } from '@locus/machines/authentication';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCircleCheck, IconHourglass, IconShieldCheck, IconUserX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { api, expect } from '../../app/api';
import { reloadCurrentUser } from '../../app/auth';
import { permissionsOf } from '../../app/permissions';
import { sessionStore, useSession } from '../../app/session';
import { usePublicConfig } from '../../public-site/public-config';
import { requestFailed } from '../messages';
import { isCoastGuard } from '../sign-up';
import { PageHeading } from './PageHeading';

type UnitValues = z.input<typeof CompleteUscgRegistrationBody>;

function SignOutLink() {
  return (
    <Group justify="center" mt="lg">
      <Anchor component={Link} to="/auth/sign-out" size="sm">
        Sign Out
      </Anchor>
    </Group>
  );
}

function UnitForm() {
  const { teams } = useSession();
  const form = useForm<UnitValues>({
    resolver: zodResolver(CompleteUscgRegistrationBody),
    defaultValues: { unitName: '' },
  });
  const submit = useMutation({
    mutationFn: async (body: UnitValues) =>
      expect(await api.auth.completeRegistrationUscg({ body }), 200),
    onSuccess: (user) => sessionStore.setUser(user, teams),
  });
  return (
    <>
      <PageHeading
        title="Complete your Coast Guard registration"
        icon={<IconShieldCheck size={28} />}
      >
        Name your unit. A Coast Guard admin on Locus checks it and approves your access.
      </PageHeading>
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => {
          if (!submit.isPending) submit.mutate(values);
        })}
      >
        <Stack>
          <TextInput
            label="Unit name"
            placeholder="e.g. Sector Delaware Bay"
            withAsterisk
            autoFocus
            error={form.formState.errors.unitName?.message}
            {...form.register('unitName')}
          />
          {submit.isError && (
            <Alert color="red" role="alert">
              {requestFailed(submit.error)}
            </Alert>
          )}
          <Button type="submit" size="md" loading={submit.isPending} disabled={submit.isPending}>
            Request access
          </Button>
        </Stack>
      </form>
    </>
  );
}

function WaitingForApproval({ user }: { user: CurrentUser }) {
  const check = useMutation({ mutationFn: reloadCurrentUser });
  return (
    <>
      <PageHeading title="Waiting for approval" icon={<IconHourglass size={28} />}>
        Your request is with the Coast Guard admins on Locus. Once one of them approves it, you can
        locate callers. We keep your place: sign in again any time to check.
      </PageHeading>
      {!user.emailConfirmed && (
        <Alert color="navy" variant="light" title="Confirm your email first" mb="md">
          Admins see requests only from confirmed addresses. Open the link we sent to{' '}
          <strong>{user.email}</strong>, or{' '}
          <Anchor
            component={Link}
            to="/register/email-confirmation/resend"
            inherit
            underline="always"
          >
            send a new link
          </Anchor>
          .
        </Alert>
      )}
      <Button
        fullWidth
        size="md"
        variant="light"
        loading={check.isPending}
        onClick={() => check.mutate()}
      >
        Check again
      </Button>
      {check.isSuccess && (
        <Text size="sm" c="gray.7" ta="center" mt="sm" role="status">
          Still waiting for approval.
        </Text>
      )}
    </>
  );
}

/** /register/complete-uscg: the reduced coast-guard registration, then the wait for approval. */
export function CompleteUscgPage() {
  const { user, teams } = useSession();
  const config = usePublicConfig();
  if (!user || config.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (teams.some((team) => team.isActive)) {
    return (
      <>
        <PageHeading title="You're approved" icon={<IconCircleCheck size={28} />} color="green">
          Your Coast Guard access is active.
        </PageHeading>
        <Button component={Link} to="/dashboard" fullWidth size="md">
          Go to the dashboard
        </Button>
      </>
    );
  }
  if (!isCoastGuard(user.email, config.data?.coastGuard)) {
    return (
      <>
        <PageHeading title="This page is for Coast Guard accounts">
          Your account belongs to an agency, so there is nothing to complete here.
        </PageHeading>
        <Button component={Link} to="/dashboard" fullWidth size="md">
          Go to the dashboard
        </Button>
      </>
    );
  }
  // The registration machine's state, as the API's complete-registration-uscg decides by it.
  const state = registrationStateFor({
    coastGuard: true,
    registrationCompleted: user.registrationComplete,
    uscgApproval: user.uscgApproval,
  });
  return (
    <>
      {state === 'awaitingApproval' ? (
        <WaitingForApproval user={user} />
      ) : state === 'rejected' ? (
        <PageHeading
          title="Your request was not approved"
          icon={<IconUserX size={28} />}
          color="red"
        >
          A Coast Guard admin declined this account. If you think that is a mistake, ask your
          unit&apos;s Locus admin or contact support.
        </PageHeading>
      ) : (
        <UnitForm />
      )}
      <SignOutLink />
    </>
  );
}

const requestedAt = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function PendingUser({ user }: { user: PendingUscgUser }) {
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: async (decision: 'approve' | 'reject') =>
      expect(await api.uscg.decide({ params: { userId: user.id, decision } }), 204),
    onSuccess: async (_, decision) => {
      notifications.show({
        // The close button is an icon alone: it needs a name (WCAG 4.1.2).
        closeButtonProps: { 'aria-label': 'Close notice' },
        color: decision === 'approve' ? 'green' : 'gray',
        message: `${user.firstName} ${user.lastName} ${decision === 'approve' ? 'approved' : 'rejected'}`,
      });
      await queryClient.invalidateQueries({ queryKey: ['uscg-pending'] });
    },
  });
  const name = `${user.firstName} ${user.lastName}`;
  return (
    <Card withBorder radius="md" padding="md" component="li" aria-label={name}>
      <Stack gap={4}>
        <Text fw={600}>{name}</Text>
        <Text size="sm">{user.email}</Text>
        <Text size="sm" c="gray.7">
          Unit: {user.unitName} · requested {requestedAt.format(new Date(user.requestedAt))}
        </Text>
        {decide.isError && (
          <Text size="sm" c="var(--mantine-color-error)" role="alert">
            {requestFailed(decide.error)}
          </Text>
        )}
        <Group mt="xs" gap="xs">
          <Button
            size="xs"
            onClick={() => decide.mutate('approve')}
            disabled={decide.isPending}
            loading={decide.isPending && decide.variables === 'approve'}
            aria-label={`Approve ${name}`}
          >
            Approve
          </Button>
          <Button
            size="xs"
            variant="default"
            onClick={() => decide.mutate('reject')}
            disabled={decide.isPending}
            loading={decide.isPending && decide.variables === 'reject'}
            aria-label={`Reject ${name}`}
          >
            Reject
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function PendingList() {
  const pending = useQuery({
    queryKey: ['uscg-pending'],
    queryFn: async () => expect(await api.uscg.pending(), 200),
  });
  if (pending.isPending) {
    return (
      <Center py="lg">
        <Loader aria-label="Loading requests" />
      </Center>
    );
  }
  if (pending.isError) {
    return (
      <Alert color="red" role="alert">
        {requestFailed(pending.error)}
      </Alert>
    );
  }
  if (pending.data.length === 0) {
    return (
      <Text ta="center" c="gray.7" role="status">
        No one is waiting for approval.
      </Text>
    );
  }
  return (
    <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
      {pending.data.map((user) => (
        <PendingUser key={user.id} user={user} />
      ))}
    </Stack>
  );
}

/** /uscg/approval: team admins of a coast-guard team approve or reject coast-guard users. */
export function UscgApprovalPage() {
  const { user, teams } = useSession();
  if (!permissionsOf(user, teams).coastGuardAdmin) {
    return (
      <>
        <PageHeading title="Coast Guard approvals">
          Coast Guard users are approved by the team admins of a Coast Guard team on Locus. Your
          account is not one, so there is nothing to approve here.
        </PageHeading>
        <Button component={Link} to="/dashboard" fullWidth size="md" variant="light">
          Back to Map
        </Button>
      </>
    );
  }
  return (
    <>
      <PageHeading title="Coast Guard approvals">
        Coast Guard users waiting to join your team. Approve only people you know belong to your
        unit.
      </PageHeading>
      <PendingList />
      <Group justify="center" mt="lg">
        <Anchor component={Link} to="/dashboard" size="sm">
          Back to Map
        </Anchor>
      </Group>
    </>
  );
}
