import { Button, FocusTrap, Group, Overlay, Paper, Portal, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';

const clock = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * "You will be signed out in 60 seconds for inactivity": an alert dialog whose sentence is
 * announced once when it opens; the countdown beside it is a timer, which screen readers do not
 * read out every second. Focus starts on "Stay signed in"; Escape means the same.
 */
export function IdleWarning({
  secondsLeft,
  onStay,
  onSignOut,
}: {
  secondsLeft: number;
  onStay(): void;
  onSignOut(): void;
}) {
  const titleId = useId();
  const descriptionId = useId();
  // The sentence keeps the number it opened with; only the timer counts down.
  const [openedWith] = useState(secondsLeft);
  return (
    <Portal>
      <Overlay fixed zIndex={1000} backgroundOpacity={0.55} />
      <FocusTrap active>
        <Paper
          role="alertdialog"
          aria-modal="true"
          aria-labelledby={titleId}
          aria-describedby={descriptionId}
          onKeyDown={(event) => {
            if (event.key === 'Escape') onStay();
          }}
          withBorder
          shadow="lg"
          p="lg"
          radius="md"
          style={{
            position: 'fixed',
            zIndex: 1001,
            top: '30%',
            left: '50%',
            transform: 'translateX(-50%)',
            width: 'min(26rem, calc(100% - 2rem))',
          }}
        >
          <Title order={2} size="h4" id={titleId}>
            Are you still there?
          </Title>
          <Text id={descriptionId} mt="sm">
            You will be signed out in {openedWith} seconds for inactivity.
          </Text>
          <Text mt="xs" size="sm" c="dimmed">
            Time left:{' '}
            <span role="timer" aria-live="off">
              {clock(Math.max(0, secondsLeft))}
            </span>
          </Text>
          <Group justify="flex-end" mt="lg">
            <Button variant="default" onClick={onSignOut}>
              Sign out now
            </Button>
            <Button data-autofocus onClick={onStay}>
              Stay signed in
            </Button>
          </Group>
        </Paper>
      </FocusTrap>
    </Portal>
  );
}
