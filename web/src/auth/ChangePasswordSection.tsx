import { zodResolver } from '@hookform/resolvers/zod';
import { ChangePasswordBody, passwordMinLength } from '@locus/contract';
import { Alert, Button, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { api, errorCode, expect } from '../app/api';
import { useSession } from '../app/session';
import { sessionsQueryKey } from './mfa/SessionsSection';
import { requestFailed } from './messages';
import { fieldIssue } from './password-strength';
import { PasswordStrength } from './PasswordStrength';

const ChangePasswordForm = ChangePasswordBody.extend({ confirmPassword: z.string() }).refine(
  (values) => values.newPassword === values.confirmPassword,
  { path: ['confirmPassword'], message: 'The passwords do not match' },
);
type ChangePasswordValues = z.infer<typeof ChangePasswordForm>;

const empty: ChangePasswordValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

/**
 * The profile's "Change password" (POST /api/v1/auth/change-password): the current password,
 * the new one with its strength meter, and the new one again. A wrong current password is told
 * beside its field (and counts toward the sign-in lockout on the server); the other consoles
 * signed in to the account are signed out, this one stays.
 */
export function ChangePasswordSection() {
  const { user } = useSession();
  const queryClient = useQueryClient();
  const form = useForm<ChangePasswordValues>({
    resolver: zodResolver(ChangePasswordForm),
    defaultValues: empty,
  });
  const change = useMutation({
    mutationFn: async ({ currentPassword, newPassword }: ChangePasswordValues) =>
      expect(await api.auth.changePassword({ body: { currentPassword, newPassword } }), 200),
    onSuccess: async ({ message }) => {
      form.reset(empty);
      notifications.show({ title: 'Password changed', message, color: 'green' });
      // The other sessions are gone from the list below.
      await queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
    },
    onError: (error) => {
      // The server's answers that belong to one field are shown beside it, and focus goes there.
      const code = errorCode(error);
      if (code === 'invalid-credentials' || code === 'account-locked') {
        form.setError('currentPassword', { message: error.message }, { shouldFocus: true });
        return;
      }
      const newPasswordIssue = fieldIssue(error, 'newPassword');
      if (newPasswordIssue)
        form.setError('newPassword', { message: newPasswordIssue }, { shouldFocus: true });
    },
  });
  const newPassword = useWatch({ control: form.control, name: 'newPassword' });
  const { errors } = form.formState;
  const fieldError = ['invalid-credentials', 'account-locked'].includes(
    errorCode(change.error) ?? '',
  );
  const otherError =
    change.isError && !fieldError && !fieldIssue(change.error, 'newPassword') ? change.error : null;

  return (
    <Stack gap="xs" component="section" aria-labelledby="change-password-heading">
      <Title order={3} size="h5" id="change-password-heading">
        Change password
      </Title>
      <Text size="sm" c="dimmed">
        Your other signed-in sessions are signed out when you change it; this one stays.
      </Text>
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => {
          if (!change.isPending) change.mutate(values);
        })}
      >
        <Stack gap="xs">
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            withAsterisk
            error={errors.currentPassword?.message}
            // Mantine's PasswordInput does not mark its input invalid itself.
            aria-invalid={errors.currentPassword !== undefined}
            {...form.register('currentPassword')}
          />
          <PasswordInput
            label={`New password (${passwordMinLength} characters or more)`}
            autoComplete="new-password"
            withAsterisk
            error={errors.newPassword?.message}
            aria-invalid={errors.newPassword !== undefined}
            {...form.register('newPassword')}
          />
          <PasswordStrength
            password={newPassword}
            userInputs={user ? [user.firstName, user.lastName, user.email] : []}
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            withAsterisk
            error={errors.confirmPassword?.message}
            aria-invalid={errors.confirmPassword !== undefined}
            {...form.register('confirmPassword')}
          />
          {otherError !== null && (
            <Alert color="red" role="alert">
              {requestFailed(otherError)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending} disabled={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
