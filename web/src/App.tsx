import { Anchor, Badge, Card, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useHealth } from './useHealth';

const statusText = {
  loading: 'Checking platform status…',
  ok: 'All systems operational',
  unavailable: 'Platform degraded: Postgres or Redis is not answering',
} as const;

/**
 * The shell: what Locus is, whether it is up, and where the API docs are. The public site,
 * sign-in and the dispatcher console come with the next issues.
 */
export function App() {
  const health = useHealth();
  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <Title order={1}>Locus</Title>
        <Text size="lg">
          Consent-based caller location for emergency and public-safety services. A dispatcher
          enters a caller&apos;s number; Locus finds the phone and streams its location to the map.
        </Text>
        <Card withBorder>
          <Group justify="space-between">
            <Text fw={600}>Platform status</Text>
            <Badge
              color={health.state === 'ok' ? 'green' : health.state === 'loading' ? 'gray' : 'red'}
              role="status"
            >
              {statusText[health.state]}
            </Badge>
          </Group>
        </Card>
        <Card withBorder>
          <Stack gap="xs">
            <Text fw={600}>For partners and integrators</Text>
            <Anchor href="/api/docs">API documentation (OpenAPI)</Anchor>
          </Stack>
        </Card>
      </Stack>
    </Container>
  );
}
