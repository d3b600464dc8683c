import { OneTimeCode } from '@locus/contract';
import { Alert, Button, Stack } from '@mantine/core';
import { IconCircleCheck, IconLinkOff, IconUsersPlus } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, expect } from '../../app/api';
import { isSessionValid, useSession } from '../../app/session';
import { requestFailed } from '../messages';
import { PageHeading } from './PageHeading';

/**
 * /auth/accept-invitation?invitation-code=…: an admin invited an existing account to a team.
 * Nothing happens until its owner chooses to join (the link alone never adds anyone).
 */
export function AcceptInvitationPage() {
  const [params] = useSearchParams();
  const code = OneTimeCode.safeParse(params.get('invitation-code') ?? '');
  const session = useSession();
  const signedIn = session.user !== null && isSessionValid(session);
  const accept = useMutation({
    mutationFn: async (invitationCode: string) =>
      expect(await api.auth.acceptInvitation({ body: { invitationCode } }), 200),
  });

  if (!code.success) {
    return (
      <PageHeading
        title="This invitation link is invalid"
        icon={<IconLinkOff size={28} />}
        color="red"
      >
        Open the link from the invitation e-mail, or ask your team administrator to invite you
        again.
      </PageHeading>
    );
  }
  if (accept.isSuccess) {
    return (
      <>
        <PageHeading
          title={`You have joined ${accept.data.teamName}`}
          icon={<IconCircleCheck size={28} />}
          color="green"
        >
          {signedIn
            ? 'Reload the dashboard to work with your new team.'
            : 'Sign in to start working with your new team.'}
        </PageHeading>
        <Button component={Link} to={signedIn ? '/dashboard' : '/auth/sign-in'} fullWidth size="md">
          {signedIn ? 'Go to the dashboard' : 'Sign In'}
        </Button>
      </>
    );
  }
  return (
    <Stack>
      <PageHeading title="Join a team on Locus" icon={<IconUsersPlus size={28} />}>
        A team administrator invited your Locus account to their team. Join it only if you expected
        this invitation.
      </PageHeading>
      {accept.isError && (
        <Alert color="red" role="alert">
          {requestFailed(accept.error)}
        </Alert>
      )}
      <Button
        size="md"
        fullWidth
        loading={accept.isPending}
        disabled={accept.isPending}
        onClick={() => accept.mutate(code.data)}
      >
        Join the team
      </Button>
    </Stack>
  );
}
