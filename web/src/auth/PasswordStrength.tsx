import { Group, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import {
  loadStrengthChecker,
  strengthLabels,
  type PasswordStrength as Strength,
} from './password-strength';

const colours = ['red', 'red', 'orange', 'teal', 'green'] as const;

/**
 * The strength meter under a new password: a bar, its label and the reason (ASVS 2.1.8). The
 * server makes the decision (it refuses common and breached passwords); this only helps choose.
 * `userInputs` (name, e-mail) count as guessable.
 */
export function PasswordStrength({
  password,
  userInputs = [],
}: {
  password: string;
  userInputs?: string[];
}) {
  const [strength, setStrength] = useState<Strength | null>(null);
  const inputs = userInputs.join('\n');

  useEffect(() => {
    let current = true;
    if (password === '') {
      setStrength(null);
      return;
    }
    loadStrengthChecker().then(
      (check) => current && setStrength(check(password, inputs.split('\n').filter(Boolean))),
      () => current && setStrength(null),
    );
    return () => {
      current = false;
    };
  }, [password, inputs]);

  if (password === '' || strength === null) return null;
  const label = strengthLabels[strength.score];
  return (
    <Stack gap={4} data-testid="password-strength">
      <Progress
        value={((strength.score + 1) / 5) * 100}
        color={colours[strength.score]}
        size="sm"
        aria-label={`Password strength: ${label}`}
      />
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Text size="sm" fw={600} aria-live="polite">
          Strength: {label}
        </Text>
        {strength.reason && (
          <Text size="sm" c="dimmed">
            {strength.reason}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
