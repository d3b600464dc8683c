import { zodResolver } from '@hookform/resolvers/zod';
import { EmailBody } from '@locus/contract';
import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { requestFailed } from '../messages';

type EmailValues = z.input<typeof EmailBody>;

/** One email field and a button: forgot password and resend confirmation share it. */
export function EmailForm({
  submitLabel,
  defaultEmail = '',
  send,
  onSent,
}: {
  submitLabel: string;
  defaultEmail?: string;
  send: (email: string) => Promise<unknown>;
  onSent: (email: string) => void;
}) {
  const form = useForm<EmailValues, unknown, z.output<typeof EmailBody>>({
    resolver: zodResolver(EmailBody),
    defaultValues: { email: defaultEmail },
  });
  const submit = useMutation({
    mutationFn: async ({ email }: { email: string }) => {
      await send(email);
      return email;
    },
    onSuccess: onSent,
  });
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
          autoFocus
          error={form.formState.errors.email?.message}
          {...form.register('email')}
        />
        {submit.isError && (
          <Alert color="red" role="alert">
            {requestFailed(submit.error)}
          </Alert>
        )}
        <Button type="submit" size="md" loading={submit.isPending} disabled={submit.isPending}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
