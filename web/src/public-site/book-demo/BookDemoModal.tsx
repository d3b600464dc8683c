import { zodResolver } from '@hookform/resolvers/zod';
import { DemoRequestBody, Email, type ErrorBody, type PublicConfig } from '@locus/contract';
import {
  Alert,
  Button,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { demoRequestClient } from '../api';
import { modalWidths } from '../modal-widths';
import { CaptchaWidget } from './CaptchaWidget';

/**
 * SPEC.md §5 "Demo form": first name, last name, email, phone number and company name are
 * required; the comment is optional. The contract's schema, with an empty email reported as
 * missing rather than as malformed.
 */
export const demoFormSchema = DemoRequestBody.omit({ captchaToken: true }).extend({
  email: z.string().trim().min(1, 'Required').pipe(Email),
});
type DemoFormInput = z.input<typeof demoFormSchema>;
type DemoFormValues = z.output<typeof demoFormSchema>;
type Field = keyof DemoFormInput;

const empty: DemoFormInput = {
  firstName: '',
  lastName: '',
  email: '',
  phoneNumber: '',
  companyName: '',
  comment: '',
};

/** Mantine's default error and description greys fall under 4.5:1 on white; these do not. */
const inputStyles = {
  label: { color: '#0b1f3a', fontWeight: 600 },
  description: { color: '#4a5872' },
  error: { color: '#b3001b' },
  required: { color: '#b3001b' },
};

const genericFailure = 'Something went wrong with your request. Please try again.';

export interface BookDemoModalProps {
  opened: boolean;
  onClose(): void;
  /** The captcha settings from the public configuration; undefined while it loads. */
  captcha: PublicConfig['captcha'] | undefined;
}

/** Book a Demo (SPEC.md §2 "Modals"), 700 px wide. Closing it discards what was typed. */
export function BookDemoModal({ opened, onClose, captcha }: BookDemoModalProps) {
  const small = useMediaQuery('(max-width: 600px)');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Book a Demo"
      size={modalWidths.wide}
      fullScreen={small}
      centered
      styles={{ title: { fontSize: 22, fontWeight: 800, color: '#0b1f3a' } }}
    >
      {/* Mantine unmounts the body when the modal closes, so every opening starts empty. */}
      <BookDemoForm captcha={captcha} onDone={onClose} />
    </Modal>
  );
}

function BookDemoForm({
  captcha,
  onDone,
}: {
  captcha: PublicConfig['captcha'] | undefined;
  onDone(): void;
}) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<DemoFormInput, unknown, DemoFormValues>({
    resolver: zodResolver(demoFormSchema),
    defaultValues: empty,
    mode: 'onTouched',
  });
  const [submitting, setSubmitting] = useState(false);
  const inFlight = useRef(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<{ firstName: string; email: string } | null>(null);
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const [captchaError, setCaptchaError] = useState<string | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  const captchaSettings = captcha && captcha.provider !== 'off' ? captcha : undefined;

  const submit = handleSubmit(async (values) => {
    // Enter in a field can submit again while the button is still disabled.
    if (inFlight.current) return;
    if (captchaSettings && !captchaToken) {
      setCaptchaError('Please complete the verification');
      return;
    }
    inFlight.current = true;
    setSubmitting(true);
    setFailure(null);
    try {
      const response = await demoRequestClient.demoRequest({
        body: {
          ...values,
          comment: values.comment ? values.comment : undefined,
          captchaToken: captchaToken ?? undefined,
        },
      });
      if (response.status === 202) {
        setSentTo({ firstName: values.firstName, email: values.email });
        return;
      }
      showFailure(response.status, response.body as ErrorBody | undefined);
    } catch {
      setFailure(genericFailure);
    } finally {
      inFlight.current = false;
      setSubmitting(false);
      if (captchaSettings) {
        // A captcha token is good for one request only.
        setCaptchaToken(null);
        setCaptchaKey((key) => key + 1);
      }
    }
  });

  const showFailure = (status: number, body: ErrorBody | undefined) => {
    if (status === 429) {
      setFailure('Too many requests. Please wait a minute and try again.');
    } else if (body?.error === 'captcha-failed') {
      setCaptchaError('The verification failed. Please try again.');
    } else if (body?.error === 'validation-failed' && body.issues?.length) {
      for (const issue of body.issues) {
        if (issue.path in empty) setError(issue.path as Field, { message: issue.message });
      }
    } else {
      setFailure(body?.message && status < 500 ? body.message : genericFailure);
    }
  };

  if (sentTo) {
    return (
      <Stack align="center" gap="sm" py="lg" role="status" ta="center">
        <IconCircleCheck size={56} color="#1f8a4c" aria-hidden="true" />
        <Text fw={800} fz={22} c="#0b1f3a">
          Thank you, {sentTo.firstName}!
        </Text>
        <Text c="#33415c" maw={480}>
          Your demo request has been received. Our team will contact you at{' '}
          <strong>{sentTo.email}</strong> to find a time that suits you.
        </Text>
        <Button mt="md" color="#0b1f3a" onClick={onDone}>
          Close
        </Button>
      </Stack>
    );
  }

  const field = (name: Field) => ({
    ...register(name),
    error: errors[name]?.message,
    styles: inputStyles,
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Book a Demo">
      <Text c="#4a5872" mb="lg">
        Tell us about your agency and we&apos;ll arrange a 30-minute walkthrough with one of our
        public-safety specialists.
      </Text>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label="First name"
            required
            autoComplete="given-name"
            {...field('firstName')}
          />
          <TextInput label="Last name" required autoComplete="family-name" {...field('lastName')} />
          <TextInput label="Email" type="email" required autoComplete="email" {...field('email')} />
          <TextInput
            label="Phone number"
            type="tel"
            required
            autoComplete="tel"
            {...field('phoneNumber')}
          />
        </SimpleGrid>
        <TextInput
          label="Company name"
          description="Your agency or organization"
          required
          autoComplete="organization"
          {...field('companyName')}
        />
        <Textarea
          label="Comment"
          description="Optional: what would you like to see?"
          autosize
          minRows={3}
          maxRows={8}
          {...field('comment')}
        />
        {captchaSettings && (
          <div>
            <CaptchaWidget
              key={captchaKey}
              settings={captchaSettings}
              onToken={(token) => {
                setCaptchaToken(token);
                if (token) setCaptchaError(null);
              }}
              onUnavailable={() =>
                setCaptchaError('The verification could not load. Check your connection.')
              }
            />
            {captchaError && (
              <Text c="#c8102e" fz="sm" mt={4} role="alert">
                {captchaError}
              </Text>
            )}
          </div>
        )}
        {failure && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle aria-hidden="true" />}
            role="alert"
          >
            {failure}
          </Alert>
        )}
        <Group justify="flex-end" mt="xs">
          <Button variant="default" onClick={onDone} type="button">
            Cancel
          </Button>
          <Button type="submit" color="#c8102e" loading={submitting}>
            Request demo
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
