import { zodResolver } from '@hookform/resolvers/zod';
import { SignInBody } from '@locus/contract';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useCallback } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { accountLocked, signInFailed } from './messages';
import { SecondFactorStep } from './second-factor/SecondFactorStep';
import { useSignInFlow } from './second-factor/useSignInFlow';
import { isSignInDefence } from './sign-in-defences';
import { SignInDefences } from './SignInDefences';

const SignInForm = SignInBody.extend({ staySignedIn: z.boolean() });
type SignInValues = z.input<typeof SignInForm>;
type SignInOutput = z.output<typeof SignInForm>;

/**
 * Email, password and Stay Signed In (checked by default), validated as SPEC.md §5 says. Used by
 * the Sign In modal and the /auth/sign-in page; `onSignedIn` decides where to go next.
 */
export function SignInFormFields({
  onSignedIn,
  onNavigateAway,
}: {
  onSignedIn: () => void;
  /** Called before following a link out of the form (a modal closes itself). */
  onNavigateAway?: () => void;
}) {
  const form = useForm<SignInValues, unknown, SignInOutput>({
    resolver: zodResolver(SignInForm),
    defaultValues: { email: '', password: '', staySignedIn: true },
  });
  // The authentication machine: the password, then a code when the user has a second factor.
  const submit = useSignInFlow(onSignedIn);
  const { errors } = form.formState;
  const setCaptchaToken = useCallback(
    (token: string | undefined) => form.setValue('captchaToken', token),
    [form],
  );
  // The sign-in flow's state, in the names the API's sign-in service decides it by.
  const locked = submit.flowState === 'locked';

  if (submit.secondFactor) return <SecondFactorStep flow={submit.secondFactor} />;
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit((values) => {
        if (!submit.isPending) submit.mutate(values);
      })}
    >
      <Stack>
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          withAsterisk
          data-autofocus
          error={errors.email?.message}
          {...form.register('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          withAsterisk
          error={errors.password?.message}
          {...form.register('password')}
        />
        <Group justify="space-between">
          <Checkbox label="Stay Signed In" {...form.register('staySignedIn')} />
          <Anchor component={Link} to="/auth/forgot-password" size="sm" onClick={onNavigateAway}>
            Forgot password?
          </Anchor>
        </Group>
        <SignInDefences error={submit.error} onCaptchaToken={setCaptchaToken} />
        {submit.isError && !isSignInDefence(submit.error) && (
          <Alert color="red" role="alert">
            <Text size="sm" fw={600}>
              {signInFailed}
            </Text>
            {locked && <Text size="sm">{accountLocked}</Text>}
          </Alert>
        )}
        <Button type="submit" size="md" loading={submit.isPending} disabled={submit.isPending}>
          Sign In
        </Button>
      </Stack>
    </form>
  );
}
