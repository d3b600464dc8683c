import { Anchor, Group, Paper, Text } from '@mantine/core';
import { IconSchool } from '@tabler/icons-react';
import { Link } from 'react-router';

/** What marks practice mode on the dashboard, word for word (tests look for it). */
export const PRACTICE_BANNER_TEXT = 'PRACTICE — simulated caller, no real text is sent';

/**
 * Practice mode (issue 14): a persistent, high-contrast strip over the map while the dashboard
 * is in practice mode or follows a practice session (also after a reload: the rejoin says so).
 * Black on yellow (well above 7:1), above the dashboard's modals so that it stays in sight at
 * every step. Before a session starts it says what to do, and offers the way out.
 */
export function PracticeBanner({ idle }: { idle: boolean }) {
  return (
    <Paper
      role="note"
      aria-label="Practice mode"
      pos="absolute"
      top={12}
      left="50%"
      px="md"
      py={8}
      bg="yellow.3"
      c="black"
      shadow="md"
      withBorder
      style={{
        transform: 'translateX(-50%)',
        zIndex: 400,
        border: '2px solid black',
        maxWidth: 'calc(100% - 24px)',
      }}
    >
      <Group gap="sm" wrap="wrap" justify="center">
        <Text
          fw={800}
          size="sm"
          c="black"
          style={{ display: 'flex', alignItems: 'center', gap: 8 }}
        >
          <IconSchool size={18} aria-hidden />
          {PRACTICE_BANNER_TEXT}
        </Text>
        {idle && (
          <Text size="sm" c="black">
            Locate any number to start.{' '}
            <Anchor component={Link} to="/dashboard" c="black" fw={700} underline="always">
              Leave practice mode
            </Anchor>
          </Text>
        )}
      </Group>
    </Paper>
  );
}
