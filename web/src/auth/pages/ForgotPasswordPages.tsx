import { zodResolver } from '@hookform/resolvers/zod';
import { OneTimeCode, UpdatePasswordBody, passwordMinLength } from '@locus/contract';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconLinkOff, IconMailForward } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { api, errorCode, expect } from '../../app/api';
import { requestFailed } from '../messages';
import { EmailForm } from './EmailForm';
import { fieldIssue } from '../password-strength';
import { PasswordStrength } from '../PasswordStrength';
import { PageHeading } from './PageHeading';

function emailFromState(state: unknown): string | null {
  const parsed = z.object({ email: z.string() }).safeParse(state);
  return parsed.success ? parsed.data.email : null;
}

function BackToSignIn() {
  return (
    <Group justify="center" mt="lg">
      <Anchor component={Link} to="/auth/sign-in" size="sm">
        Back to Sign In
      </Anchor>
    </Group>
  );
}

/** /auth/forgot-password */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeading title="Forgot your password?">
        Enter the email you sign in with and we will send you a link to choose a new password.
      </PageHeading>
      <EmailForm
        submitLabel="Send reset link"
        send={async (email) => expect(await api.auth.forgotPassword({ body: { email } }), 202)}
        onSent={(email) => void navigate('/auth/forgot-password/sent', { state: { email } })}
      />
      <BackToSignIn />
    </>
  );
}

/** /auth/forgot-password/sent: the same words whether or not the address has an account. */
export function ForgotPasswordSentPage() {
  const email = emailFromState(useLocation().state);
  return (
    <>
      <PageHeading title="Check your email" icon={<IconMailForward size={28} />}>
        If {email ? <strong>{email}</strong> : 'that address'} has a Locus account, we have sent it
        a link to reset the password. The link works once and expires after a short while.
      </PageHeading>
      <Text size="sm" ta="center" c="gray.7">
        Nothing arrived? Check your spam folder, or{' '}
        <Anchor component={Link} to="/auth/forgot-password" underline="always">
          send another link
        </Anchor>
        .
      </Text>
      <BackToSignIn />
    </>
  );
}

const ResetForm = z
  .object({ password: UpdatePasswordBody.shape.password, confirmPassword: z.string() })
  .refine((values) => values.password === values.confirmPassword, {
    path: ['confirmPassword'],
    message: 'The passwords do not match',
  });
type ResetValues = z.infer<typeof ResetForm>;

function InvalidResetLink() {
  return (
    <>
      <PageHeading title="This link no longer works" icon={<IconLinkOff size={28} />} color="red">
        Password reset links work once and expire after a short while. Ask for a new one and use the
        newest email.
      </PageHeading>
      <Button component={Link} to="/auth/forgot-password" fullWidth size="md">
        Send a new reset link
      </Button>
      <BackToSignIn />
    </>
  );
}

/** /auth/forgot-password/reset?reset-code=… */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const code = OneTimeCode.safeParse(params.get('reset-code') ?? '');
  const form = useForm<ResetValues>({
    resolver: zodResolver(ResetForm),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const submit = useMutation({
    mutationFn: async ({ password }: ResetValues) => {
      if (!code.success) throw new Error('No reset code');
      return expect(
        await api.auth.updatePassword({ body: { resetCode: code.data, password } }),
        200,
      );
    },
    onSuccess: () => void navigate('/auth/forgot-password/success', { replace: true }),
  });
  const password = useWatch({ control: form.control, name: 'password' });

  if (!code.success || errorCode(submit.error) === 'invalid-code') return <InvalidResetLink />;
  const { errors } = form.formState;
  return (
    <>
      <PageHeading title="Choose a new password">
        Every device signed in to your account is signed out when you change it.
      </PageHeading>
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => {
          if (!submit.isPending) submit.mutate(values);
        })}
      >
        <Stack>
          <PasswordInput
            label={`New password (${passwordMinLength} characters or more)`}
            autoComplete="new-password"
            withAsterisk
            autoFocus
            error={errors.password?.message ?? fieldIssue(submit.error, 'password')}
            {...form.register('password')}
          />
          <PasswordStrength password={password} />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            withAsterisk
            error={errors.confirmPassword?.message}
            {...form.register('confirmPassword')}
          />
          {submit.isError && (
            <Alert color="red" role="alert">
              {requestFailed(submit.error)}
            </Alert>
          )}
          <Button type="submit" size="md" loading={submit.isPending} disabled={submit.isPending}>
            Change password
          </Button>
        </Stack>
      </form>
    </>
  );
}

/** /auth/forgot-password/success */
export function ResetPasswordSuccessPage() {
  return (
    <>
      <PageHeading title="Password changed" icon={<IconCircleCheck size={28} />} color="green">
        Your new password is set. Sign in with it on every device you use Locus on.
      </PageHeading>
      <Button component={Link} to="/auth/sign-in" fullWidth size="md">
        Sign In
      </Button>
    </>
  );
}
