import { zodResolver } from '@hookform/resolvers/zod';
import { passwordMinLength } from '@locus/contract';
import type { PublicConfig } from '@locus/contract';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Input,
  Modal,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { CaptchaWidget, type CaptchaSettings } from '../public-site/book-demo/CaptchaWidget';
import { PrivacyPolicyDialog, TermsDialog } from '../public-site/dialogs';
import { modalWidths } from '../public-site/modal-widths';
import { usePublicConfig } from '../public-site/public-config';
import { AgencySearch } from './AgencySearch';
import { signUpFailed } from './messages';
import { fieldIssue } from './password-strength';
import { PasswordStrength } from './PasswordStrength';
import { isCoastGuard, registrationPage, signUp, signUpSchema, type SignUpValues } from './sign-up';

/** SPEC.md §9: the page reloads this long after a sign-up lands on the dashboard. */
const reloadAfterSignUpMs = 100;

function captchaEnabled(captcha: PublicConfig['captcha'] | undefined): captcha is CaptchaSettings {
  return captcha !== undefined && captcha.provider !== 'off';
}

const emptyForm: SignUpValues = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  phoneNumber: '',
  agency: null,
  companyName: '',
  agreedToTermsOfService: false,
  captchaToken: null,
};

function CreateAccountForm({ onDone }: { onDone: () => void }) {
  const navigate = useNavigate();
  const config = usePublicConfig().data;
  const captcha = config?.captcha;
  const coastGuard = config?.coastGuard;
  const schema = useMemo(
    () => signUpSchema(coastGuard, captchaEnabled(captcha)),
    [coastGuard, captcha],
  );
  const form = useForm<SignUpValues>({ resolver: zodResolver(schema), defaultValues: emptyForm });
  const [legal, setLegal] = useState<'terms' | 'privacy' | null>(null);
  const [email, agency, password, firstName, lastName] = useWatch({
    control: form.control,
    name: ['email', 'agency', 'password', 'firstName', 'lastName'],
  });
  const coastGuardEmail = isCoastGuard(email, coastGuard);

  const submit = useMutation({
    mutationFn: (values: SignUpValues) => signUp(values, coastGuard),
    onSuccess: async (outcome) => {
      onDone();
      // The registration machine's state picks the next page.
      await navigate(registrationPage[outcome.state]);
      if (outcome.state === 'coastGuardUnit') return;
      window.setTimeout(() => window.location.reload(), reloadAfterSignUpMs);
    },
  });
  const { errors } = form.formState;

  const accept = () => {
    form.setValue('agreedToTermsOfService', true, { shouldValidate: form.formState.isSubmitted });
    setLegal(null);
  };

  return (
    <>
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => {
          if (!submit.isPending) submit.mutate(values);
        })}
      >
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              label="First name"
              autoComplete="given-name"
              withAsterisk
              data-autofocus
              error={errors.firstName?.message}
              {...form.register('firstName')}
            />
            <TextInput
              label="Last name"
              autoComplete="family-name"
              withAsterisk
              error={errors.lastName?.message}
              {...form.register('lastName')}
            />
          </SimpleGrid>
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            withAsterisk
            error={errors.email?.message}
            {...form.register('email')}
          />
          <PasswordInput
            label={`Password (${passwordMinLength} characters or more)`}
            autoComplete="new-password"
            withAsterisk
            error={errors.password?.message ?? fieldIssue(submit.error, 'password')}
            {...form.register('password')}
          />
          <PasswordStrength password={password} userInputs={[firstName, lastName, email]} />
          {coastGuardEmail ? (
            <Alert color="navy" variant="light" title="Coast Guard account">
              After you create your account you will name your unit, and a Coast Guard admin on
              Locus approves your access. No agency or phone number is needed.
            </Alert>
          ) : (
            <>
              <TextInput
                label="Phone"
                type="tel"
                autoComplete="tel"
                error={errors.phoneNumber?.message}
                {...form.register('phoneNumber')}
              />
              <Controller
                control={form.control}
                name="agency"
                render={({ field, fieldState }) => (
                  <AgencySearch
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    error={fieldState.error?.message}
                  />
                )}
              />
              {agency === false && (
                <TextInput
                  label="Agency name"
                  description="The agency you work for, as you would write it"
                  autoComplete="organization"
                  withAsterisk
                  error={errors.companyName?.message}
                  {...form.register('companyName')}
                />
              )}
            </>
          )}
          <Controller
            control={form.control}
            name="agreedToTermsOfService"
            render={({ field, fieldState }) => (
              <Checkbox
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                onBlur={field.onBlur}
                name={field.name}
                ref={field.ref}
                error={fieldState.error?.message}
                label={
                  <>
                    I agree to the{' '}
                    <Anchor
                      component="button"
                      type="button"
                      inherit
                      underline="always"
                      onClick={() => setLegal('terms')}
                    >
                      Terms of Use and Service
                    </Anchor>{' '}
                    and the{' '}
                    <Anchor
                      component="button"
                      type="button"
                      inherit
                      underline="always"
                      onClick={() => setLegal('privacy')}
                    >
                      Privacy Policy
                    </Anchor>
                  </>
                }
              />
            )}
          />
          {captchaEnabled(captcha) && (
            <Controller
              control={form.control}
              name="captchaToken"
              render={({ field, fieldState }) => (
                <Input.Wrapper label="Security check" error={fieldState.error?.message}>
                  <CaptchaWidget
                    settings={captcha}
                    onToken={field.onChange}
                    onUnavailable={() =>
                      form.setError('captchaToken', {
                        message:
                          'The security check could not load. Reload the page and try again.',
                      })
                    }
                  />
                </Input.Wrapper>
              )}
            />
          )}
          {submit.isError && (
            <Alert color="red" role="alert">
              {signUpFailed(submit.error)}
            </Alert>
          )}
          <Button
            type="submit"
            size="md"
            mt="xs"
            loading={submit.isPending}
            disabled={submit.isPending}
          >
            Create Account
          </Button>
          <Text size="xs" c="gray.7" ta="center">
            We send a link to confirm your email address.
          </Text>
        </Stack>
      </form>
      <TermsDialog opened={legal === 'terms'} onClose={() => setLegal(null)} onAccept={accept} />
      <PrivacyPolicyDialog
        opened={legal === 'privacy'}
        onClose={() => setLegal(null)}
        onAccept={accept}
      />
    </>
  );
}

/** SPEC.md §2 "Create Account". Closing it clears every field: each opening is a new form. */
export function CreateAccountModal({
  opened,
  onClose,
  onSignIn,
}: {
  opened: boolean;
  onClose: () => void;
  onSignIn: () => void;
}) {
  // Each opening starts a new form, however the modal was left (closed, or switched away from).
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!opened) setGeneration((value) => value + 1);
  }, [opened]);
  return (
    <Modal opened={opened} onClose={onClose} title="Create Account" size={modalWidths.wide}>
      <CreateAccountForm key={generation} onDone={onClose} />
      <Text size="sm" ta="center" mt="md">
        Already have an account?{' '}
        <Anchor component="button" type="button" underline="always" onClick={onSignIn}>
          Sign In
        </Anchor>
      </Text>
    </Modal>
  );
}
