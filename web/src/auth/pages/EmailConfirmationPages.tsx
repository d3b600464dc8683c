import { OneTimeCode } from '@locus/contract';
import { Anchor, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconLinkOff, IconMailForward } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { api, expect } from '../../app/api';
import { reloadCurrentUser } from '../../app/auth';
import { isSessionValid, useSession } from '../../app/session';
import { EmailForm } from './EmailForm';
import { PageHeading } from './PageHeading';

function Continue() {
  const session = useSession();
  const signedIn = session.user !== null && isSessionValid(session);
  return signedIn ? (
    <Button component={Link} to="/dashboard" fullWidth size="md">
      Go to the dashboard
    </Button>
  ) : (
    <Button component={Link} to="/auth/sign-in" fullWidth size="md">
      Sign In
    </Button>
  );
}

function InvalidConfirmationLink() {
  return (
    <>
      <PageHeading
        title="This link is invalid or has expired"
        icon={<IconLinkOff size={28} />}
        color="red"
      >
        Confirmation links work once and expire after a few days. Ask for a new one and use the
        newest email.
      </PageHeading>
      <Button component={Link} to="/register/email-confirmation/resend" fullWidth size="md">
        Send a new confirmation link
      </Button>
    </>
  );
}

/** /register/email-confirmation?verification-code=… confirms as soon as it opens. */
export function EmailConfirmationPage() {
  const [params] = useSearchParams();
  const code = OneTimeCode.safeParse(params.get('verification-code') ?? '');
  const session = useSession();
  const signedIn = session.user !== null && isSessionValid(session);
  const confirm = useMutation({
    mutationFn: async (verificationCode: string) =>
      expect(await api.auth.confirmEmail({ body: { verificationCode } }), 200),
    // A signed-in user's cached profile says whether the address is confirmed.
    onSuccess: () => (signedIn ? reloadCurrentUser().catch(() => undefined) : undefined),
  });
  // A code is single-use: confirm it once per page, never again on a re-render.
  const sent = useRef(false);
  const mutate = confirm.mutate;
  useEffect(() => {
    if (!code.success || sent.current) return;
    sent.current = true;
    mutate(code.data);
  }, [code.success, code.data, mutate]);

  if (!code.success || confirm.isError) return <InvalidConfirmationLink />;
  if (!confirm.isSuccess) {
    return (
      <Center py="xl" role="status">
        <Stack align="center">
          <Loader />
          <Text>Confirming your email…</Text>
        </Stack>
      </Center>
    );
  }
  return (
    <>
      <PageHeading
        title="Your email is confirmed"
        icon={<IconCircleCheck size={28} />}
        color="green"
      >
        Thank you. Your Locus account is ready to locate callers.
      </PageHeading>
      <Continue />
    </>
  );
}

/** /register/email-confirmation/resend */
export function ResendConfirmationPage() {
  const navigate = useNavigate();
  const { user } = useSession();
  return (
    <>
      <PageHeading title="Resend the confirmation email">
        Enter the email you signed up with and we will send a new confirmation link.
      </PageHeading>
      <EmailForm
        submitLabel="Send a new link"
        defaultEmail={user?.email ?? ''}
        send={async (email) =>
          expect(await api.auth.resendEmailConfirmation({ body: { email } }), 202)
        }
        onSent={(email) =>
          void navigate('/register/email-confirmation/email-sent', { state: { email } })
        }
      />
    </>
  );
}

/** /register/email-confirmation/email-sent: the same words whether or not the address is known. */
export function ConfirmationEmailSentPage() {
  const parsed = z.object({ email: z.string() }).safeParse(useLocation().state);
  const email = parsed.success ? parsed.data.email : null;
  return (
    <>
      <PageHeading title="Check your email" icon={<IconMailForward size={28} />}>
        If {email ? <strong>{email}</strong> : 'that address'} has an account waiting for
        confirmation, a new link is on its way. Links from earlier emails may no longer work.
      </PageHeading>
      <Text size="sm" ta="center" c="gray.7" mb="lg">
        Nothing arrived? Check your spam folder, or{' '}
        <Anchor component={Link} to="/register/email-confirmation/resend" underline="always">
          send another link
        </Anchor>
        .
      </Text>
      <Continue />
    </>
  );
}
