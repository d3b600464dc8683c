import { isValidPhone, PhoneNumber, normalisePhoneInput } from '@locus/contract';
import { Button, Group, SegmentedControl, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { KeyboardEvent } from 'react';
import { notifications } from '@mantine/notifications';
import {
  IconCurrentLocation,
  IconList,
  IconPlayerStopFilled,
  IconPlus,
  IconUsers,
} from '@tabler/icons-react';

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
        id={PHONE_INPUT_ID}
        data-tour="phone-number"
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
        <Button type="submit" color="signal" px="xs" aria-label="Locate" data-tour="locate">
          <IconCurrentLocation size={18} aria-hidden />
        </Button>
      ) : (
        <Button
          type="submit"
          color="signal"
          data-tour="locate"
          leftSection={<IconCurrentLocation size={16} aria-hidden />}
        >
          Locate
        </Button>
      )}
    </Group>
  );
}

/** The header's phone field: where focus goes when tracking ends (see DashboardPage). */
export const PHONE_INPUT_ID = 'locate-phone-number';

/**
 * SPEC.md §2: before tracking, a toggle between Locate Numbers (typed numbers) and Locate by List
 * (the team's call lists); choosing either opens its modal. A segmented control (radios), so the
 * single-number Locate stays the header's only "Locate" button. No segment stays selected: each
 * choice is an action, and choosing the same one again must open its modal again.
 */
/**
 * Radios choose as they are arrowed to, and each choice here opens a dialog: a keyboard user
 * moving between the two would open one by accident (WCAG 3.2.2). Arrows only move focus;
 * Space or Enter chooses.
 */
function keyboardWithoutOpening(event: KeyboardEvent<HTMLDivElement>) {
  const radios = [...event.currentTarget.querySelectorAll<HTMLInputElement>('input[type="radio"]')];
  const index = radios.indexOf(event.target as HTMLInputElement);
  if (index < 0) return;
  if (event.key === 'Enter') {
    event.preventDefault();
    radios[index]!.click();
    return;
  }
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (step === undefined) return;
  event.preventDefault();
  event.stopPropagation();
  radios[(index + step + radios.length) % radios.length]!.focus();
}

export function MultiLocateToggle({
  onLocateNumbers,
  onLocateByList,
}: {
  onLocateNumbers: () => void;
  onLocateByList: () => void;
}) {
  const compact = useCompactHeader();
  return (
    <SegmentedControl
      aria-label="Locate many numbers"
      data-tour="locate-many"
      size={compact ? 'xs' : 'sm'}
      value=""
      onChange={(value) => (value === 'lists' ? onLocateByList() : onLocateNumbers())}
      onKeyDownCapture={keyboardWithoutOpening}
      data={[
        {
          value: 'numbers',
          label: compact ? (
            <>
              <IconUsers size={16} aria-hidden style={{ display: 'block' }} />
              <VisuallyHidden>Locate Numbers</VisuallyHidden>
            </>
          ) : (
            'Locate Numbers'
          ),
        },
        {
          value: 'lists',
          label: compact ? (
            <>
              <IconList size={16} aria-hidden style={{ display: 'block' }} />
              <VisuallyHidden>Locate by List</VisuallyHidden>
            </>
          ) : (
            'Locate by List'
          ),
        },
      ]}
      style={{ flexShrink: 0 }}
    />
  );
}

/** While tracking: "Locating <number>", Add numbers and End Tracking. */
export function TrackingControls({
  heading,
  ending,
  onEnd,
  onAddNumbers,
  adding = false,
}: {
  heading: string;
  ending: boolean;
  onEnd: () => void;
  /** Text more numbers in the running session; absent before the session exists. */
  onAddNumbers?: () => void;
  adding?: boolean;
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
      {onAddNumbers && (
        <Button
          variant="white"
          color="navy"
          px={compact ? 6 : undefined}
          onClick={onAddNumbers}
          loading={adding}
          aria-label="Add numbers"
          leftSection={compact ? undefined : <IconPlus size={16} aria-hidden />}
          style={{ flexShrink: 0 }}
        >
          {compact ? <IconPlus size={18} aria-hidden /> : 'Add numbers'}
        </Button>
      )}
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
