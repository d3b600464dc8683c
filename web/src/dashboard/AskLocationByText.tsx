import type { ErrorCode } from '@locus/contract';
import { ActionIcon, Button, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMessageShare } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { ApiError, api, expect } from '../app/api';

/** Refusals the API explains in words the dispatcher can act on (the number, the limits, the team). */
const explainedRefusals: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'untextable-number',
  'rate-limited',
  'no-active-team',
]);

function askFailedMessage(error: unknown, phoneNumber: string): string {
  if (!(error instanceof ApiError)) return 'Could not send the text. Try again.';
  if (error.code === 'sms-opted-out')
    return `${phoneNumber} has opted out of text messages (they replied STOP).`;
  if (error.code && explainedRefusals.has(error.code)) return error.message;
  return 'Could not send the text. Try again.';
}

/**
 * "Ask for location by text": when the caller's page cannot get positions through (mobile data
 * fails, texts still pass), Locus texts the caller, in their language, how to reply with a map
 * pin or a Plus Code; the reply lands on the map as a texted fix. The session log records the
 * ask (`text-location-requested`), so every dispatcher on the case sees it.
 */
function useAskLocationByText(connectionRequestUuid: string, phoneNumber: string) {
  return useMutation({
    mutationFn: async (callerId: string | undefined) =>
      expect(
        await api.tracking.askLocationByText({
          body: { connectionRequestUuid, ...(callerId ? { callerId } : {}) },
        }),
        200,
      ),
    onSuccess: () =>
      notifications.show({
        message: `Asked ${phoneNumber} to text their location`,
        color: 'green',
        autoClose: 3000,
      }),
    onError: (error) =>
      notifications.show({ color: 'red', message: askFailedMessage(error, phoneNumber) }),
  });
}

/** The session's one number: a full button under the latest fix. */
export function AskLocationByTextButton({
  connectionRequestUuid,
  phoneNumber,
}: {
  connectionRequestUuid: string;
  phoneNumber: string;
}) {
  const ask = useAskLocationByText(connectionRequestUuid, phoneNumber);
  return (
    <Button
      data-testid="ask-location-by-text"
      variant="light"
      size="compact-sm"
      leftSection={<IconMessageShare size={16} aria-hidden />}
      loading={ask.isPending}
      onClick={() => ask.mutate(undefined)}
    >
      Ask for location by text
    </Button>
  );
}

/** One number of many: an icon in its row of the Numbers panel. */
export function AskLocationByTextIcon({
  connectionRequestUuid,
  callerId,
  phoneNumber,
}: {
  connectionRequestUuid: string;
  callerId: string;
  phoneNumber: string;
}) {
  const ask = useAskLocationByText(connectionRequestUuid, phoneNumber);
  const label = `Ask ${phoneNumber} for location by text`;
  return (
    <Tooltip label={label}>
      <ActionIcon
        size="sm"
        variant="subtle"
        aria-label={label}
        loading={ask.isPending}
        onClick={() => ask.mutate(callerId)}
      >
        <IconMessageShare size={14} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}
