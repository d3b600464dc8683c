import { isValidPhone, PhoneNumber, normalisePhoneInput } from '@locus/contract';
import { Button, Group, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconCurrentLocation, IconPlayerStopFilled } from '@tabler/icons-react';

/** SPEC.md §2 and §9: the invalid-number snackbar and how long it shows. */
export const INVALID_PHONE_MESSAGE = 'Please use a valid Phone Number';
export const SNACKBAR_TIMEOUT_MS = 3000;

/** Below this the header shares a phone's width with the mark and the user menu. */
function useCompactHeader(): boolean {
  return !useMediaQuery('(min-width: 600px)', true, { getInitialValueInEffect: false });
}

/**
 * The number as E.164 when it is a valid phone number once the default prefix is applied
 * (SPEC.md §4 step 1, §5 "Locate (single number)"), else null.
 */
export function phoneToLocate(input: string): string | null {
  const normalised = normalisePhoneInput(input);
  if (!isValidPhone(normalised)) return null;
  const parsed = PhoneNumber.safeParse(normalised);
  return parsed.success ? parsed.data : null;
}

/**
 * Before tracking: one phone number and Locate. The page keeps what was typed, so a number that
 * could not be located (say, the email was not verified yet) is still there to try again.
 */
export function LocateForm({
  value,
  onChange,
  onLocate,
}: {
  value: string;
  onChange: (value: string) => void;
  onLocate: (phoneNumber: string) => void;
}) {
  const compact = useCompactHeader();
  return (
    <Group
      component="form"
      gap={6}
      wrap="nowrap"
      style={{ minWidth: 0 }}
      aria-label="Locate a caller"
      onSubmit={(event) => {
        event.preventDefault();
        const phoneNumber = phoneToLocate(value);
        if (phoneNumber === null) {
          notifications.show({
            message: INVALID_PHONE_MESSAGE,
            color: 'red',
            autoClose: SNACKBAR_TIMEOUT_MS,
          });
          return;
        }
        onLocate(phoneNumber);
      }}
    >
      <TextInput
        aria-label="Phone number"
        placeholder="Phone number"
        type="tel"
        inputMode="tel"
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        w={compact ? undefined : 210}
        style={compact ? { flex: '1 1 130px', minWidth: 72 } : undefined}
      />
      {compact ? (
        <Button type="submit" color="signal" px="xs" aria-label="Locate">
          <IconCurrentLocation size={18} aria-hidden />
        </Button>
      ) : (
        <Button
          type="submit"
          color="signal"
          leftSection={<IconCurrentLocation size={16} aria-hidden />}
        >
          Locate
        </Button>
      )}
    </Group>
  );
}

/** While tracking: "Locating <number>" and End Tracking. */
export function TrackingControls({
  heading,
  ending,
  onEnd,
}: {
  heading: string;
  ending: boolean;
  onEnd: () => void;
}) {
  const compact = useCompactHeader();
  return (
    <Group gap={compact ? 4 : 'sm'} wrap="nowrap" style={{ minWidth: 0 }}>
      {/* On a phone the number wraps under "Locating" rather than being cut off. */}
      <Text
        c="white"
        fw={600}
        fz={compact ? 11 : 'md'}
        lh={compact ? 1.25 : undefined}
        maw={compact ? 96 : undefined}
        style={compact ? { overflowWrap: 'anywhere' } : undefined}
        truncate={compact ? undefined : 'end'}
        aria-live="polite"
      >
        {heading}
      </Text>
      {compact ? (
        <Button
          color="signal"
          px={6}
          onClick={onEnd}
          loading={ending}
          aria-label="End Tracking"
          style={{ flexShrink: 0 }}
        >
          <IconPlayerStopFilled size={18} aria-hidden />
        </Button>
      ) : (
        <Button color="signal" onClick={onEnd} loading={ending} style={{ flexShrink: 0 }}>
          End Tracking
        </Button>
      )}
    </Group>
  );
}
