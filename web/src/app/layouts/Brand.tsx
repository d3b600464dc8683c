import { Group, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { LocusMark } from '../../public-site/LocusMark';

/** The Locus mark and name, linking home (the site or the map, depending on where it sits). */
export function Brand({ to, inverted = false }: { to: string; inverted?: boolean }) {
  return (
    <UnstyledButton component={Link} to={to} aria-label="Locus home">
      <Group gap={10} wrap="nowrap">
        <LocusMark size={30} onDark={inverted} />
        <Text
          fw={800}
          fz="xl"
          lh={1}
          c={inverted ? 'white' : 'navy.9'}
          // On a phone-sized screen (or at 400 % zoom) the mark alone leaves room for the work.
          visibleFrom="xs"
          style={{ letterSpacing: -0.5 }}
        >
          Locus
        </Text>
      </Group>
    </UnstyledButton>
  );
}
