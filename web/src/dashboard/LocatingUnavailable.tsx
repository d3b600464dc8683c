import type { CurrentUser, Team } from '@locus/contract';
import { Paper, Text, Title } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';

/** Why this account may not locate anyone (the API's 403 codes), or null when it may. */
export type LocatingBlock = 'no-active-team' | 'registration-incomplete';

export const locatingBlockMessages: Record<LocatingBlock, string> = {
  'no-active-team':
    'Your account is not part of an active agency team yet. Ask your agency administrator to add you.',
  'registration-incomplete':
    'Your registration is not finished, so you cannot locate callers yet. Ask your agency administrator to complete it.',
};

const isLocatingBlock = (code: string | undefined): code is LocatingBlock =>
  code === 'no-active-team' || code === 'registration-incomplete';

/**
 * Known before any click from the signed-in user and their teams (the API refuses the same
 * accounts with the same codes); a refusal the page did not foresee (the team was deactivated
 * since it loaded) is shown the same way.
 */
export function locatingBlock(
  user: CurrentUser | null,
  teams: readonly Team[],
  refusedWith: string | undefined,
): LocatingBlock | null {
  if (isLocatingBlock(refusedWith)) return refusedWith;
  if (user === null) return null;
  if (!teams.some((team) => team.isActive)) return 'no-active-team';
  if (!user.registrationComplete) return 'registration-incomplete';
  return null;
}

/** Shown over the map instead of the Locate controls. */
export function LocatingUnavailable({ reason }: { reason: LocatingBlock }) {
  return (
    <Paper
      role="status"
      pos="absolute"
      top={16}
      left="50%"
      p="md"
      withBorder
      shadow="md"
      maw="min(480px, calc(100% - 32px))"
      w="100%"
      style={{ transform: 'translateX(-50%)', zIndex: 150 }}
    >
      <Title order={2} size="h4" mb={6} style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        <IconUsersGroup size={20} aria-hidden />
        Locating is not available
      </Title>
      <Text size="sm">{locatingBlockMessages[reason]}</Text>
    </Paper>
  );
}
