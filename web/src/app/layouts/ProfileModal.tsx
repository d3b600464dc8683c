import { zodResolver } from '@hookform/resolvers/zod';
import type { CurrentUser } from '@locus/contract';
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { modalWidths } from '../../public-site/modal-widths';
import { api, expect } from '../api';
import { sessionStore, useSession } from '../session';

// Two-step sign-in and the active sessions: their own chunk, fetched when the profile opens.
const ProfileSecurity = lazy(() => import('../../auth/mfa/ProfileSecurity'));

const ProfileForm = z.object({
  firstName: z.string().trim().min(1, 'Required').max(100),
  lastName: z.string().trim().min(1, 'Required').max(100),
  phoneNumber: z.string().trim().max(32, 'At most 32 characters'),
});
type ProfileForm = z.infer<typeof ProfileForm>;

function defaults(user: CurrentUser | null): ProfileForm {
  return {
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    phoneNumber: user?.phoneNumber ?? '',
  };
}

/** The user menu's Profile: first and last name and phone, saved with PATCH /api/v1/users/{id}. */
export function ProfileModal({
  opened,
  onClose,
  onExited,
}: {
  opened: boolean;
  onClose: () => void;
  /** After the closing transition: the opener takes focus back (its menu item is gone). */
  onExited: () => void;
}) {
  const { user, teams } = useSession();
  const form = useForm<ProfileForm>({
    resolver: zodResolver(ProfileForm),
    defaultValues: defaults(user),
  });
  const save = useMutation({
    mutationFn: async (values: ProfileForm) => {
      if (!user) throw new Error('Not signed in');
      return expect(
        await api.users.patch({
          params: { id: user.id },
          body: { ...values, phoneNumber: values.phoneNumber === '' ? null : values.phoneNumber },
        }),
        200,
      );
    },
    onSuccess: (updated) => {
      sessionStore.setUser(updated, teams);
      notifications.show({ message: 'Profile saved', color: 'green' });
      onClose();
    },
  });
  const { reset } = form;
  const resetSave = save.reset;

  // Closing a modal clears its fields: each opening starts from the saved profile.
  useEffect(() => {
    if (opened) {
      reset(defaults(user));
      resetSave();
    }
  }, [opened, user, reset, resetSave]);

  const { errors } = form.formState;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Profile"
      size={modalWidths.narrow}
      returnFocus={false}
      onExitTransitionEnd={onExited}
    >
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => {
          if (!save.isPending) save.mutate(values);
        })}
      >
        <Stack>
          <TextInput label="Email" value={user?.email ?? ''} readOnly disabled />
          <TextInput
            label="First name"
            autoComplete="given-name"
            withAsterisk
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
          <TextInput
            label="Phone"
            type="tel"
            autoComplete="tel"
            error={errors.phoneNumber?.message}
            {...form.register('phoneNumber')}
          />
          {save.isError && (
            <Alert color="red" role="alert">
              Your profile could not be saved. Please try again.
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} disabled={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
      {opened && (
        <Suspense fallback={null}>
          <ProfileSecurity />
        </Suspense>
      )}
    </Modal>
  );
}
