import {
  Alert,
  Anchor,
  Card,
  Container,
  Group,
  List,
  Loader,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';
import { DemoRequestsPanel } from '../DemoRequestsPanel';
import { BroadcastsPanel } from './BroadcastsPanel';
import { ConfigPanel } from './ConfigPanel';
import { DevOutboxPanel } from './DevOutboxPanel';
import { FailedJobsPanel } from './FailedJobsPanel';
import { HistoryPanel } from './HistoryPanel';
import { failureMessage, STATUS_REFRESH_MS, usePlatformStatus } from './queries';
import { OverallStatus, StatusCards } from './StatusCards';

function Panel({ children }: { children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" style={{ minWidth: 0 }}>
      {children}
    </Card>
  );
}

/**
 * Demo deployments only: texts and e-mails never leave, they land in the dev outbox (read
 * through the API; the app has no screen of its own for it).
 */
function DevOutboxBanner() {
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconMailForward size={20} aria-hidden />}
      title="Demo mode: the dev outbox is on"
      // Mantine's yellow title is under AA on its light background: the body's colour instead.
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
      data-testid="dev-outbox-banner"
    >
      <Text size="sm">
        Texts and e-mails go to the dev outbox and do not leave: no caller or user receives them.
        The newest are in the outbox section below; all of them at{' '}
        <Anchor
          href="/api/v1/dev/outbox/sms"
          target="_blank"
          rel="noopener noreferrer"
          c="inherit"
          underline="always"
        >
          sent texts
        </Anchor>{' '}
        and{' '}
        <Anchor
          href="/api/v1/dev/outbox/email"
          target="_blank"
          rel="noopener noreferrer"
          c="inherit"
          underline="always"
        >
          sent e-mails
        </Anchor>{' '}
        (JSON, newest first).
      </Text>
    </Alert>
  );
}

function Tools() {
  const headingId = useId();
  return (
    <Stack gap={6} component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId}>
        Tools
      </Title>
      <List spacing={4} size="sm">
        {/* Served by the API, outside this app (same sign-in): a full page load, not a route. */}
        <List.Item>
          <Anchor href="/admin/queues">Queue board</Anchor>
        </List.Item>
        <List.Item>
          <Anchor href="/api/docs" target="_blank" rel="noopener noreferrer">
            API documentation
          </Anchor>
        </List.Item>
        <List.Item>
          <Anchor href="/api/v1/health" target="_blank" rel="noopener noreferrer">
            Health (for load balancers)
          </Anchor>
        </List.Item>
      </List>
    </Stack>
  );
}

/**
 * /admin/dev, the operations console (platform owner's company only, SPEC.md §5 DEV): whether
 * texts leave, fixes are stored, workers are alive and queues drain, read again every few
 * seconds; failed jobs to retry or discard; broadcasts; the tools and the demo requests.
 */
export function AdminDevPage() {
  const status = usePlatformStatus();
  const data = status.data;
  return (
    <Container size="xl" py="md" px={{ base: 0, sm: 'md' }}>
      <Stack gap="lg">
        <Group justify="space-between" align="center" wrap="wrap" gap="sm">
          <div>
            <Title order={1} fz={26}>
              Dev
            </Title>
            <Text size="sm" c="dimmed">
              The platform&apos;s health, read again every {STATUS_REFRESH_MS / 1_000} seconds
            </Text>
          </div>
          {data && <OverallStatus status={data} />}
        </Group>
        {data?.devOutbox && <DevOutboxBanner />}
        {status.isPending && <Loader size="sm" aria-label="Loading the platform status" />}
        {status.isError && (
          <Alert color="red" role="alert">
            The status could not be read: {failureMessage(status.error)}
            {data && ' The cards show the last status read.'}
          </Alert>
        )}
        {data && (
          <>
            <section aria-labelledby="platform-status-title">
              <Title order={2} size="h4" id="platform-status-title" mb="sm">
                Platform status
              </Title>
              <StatusCards status={data} />
            </section>
            <Panel>
              <HistoryPanel history={data.history} />
            </Panel>
          </>
        )}
        <Panel>
          <FailedJobsPanel />
        </Panel>
        <Panel>
          <BroadcastsPanel />
        </Panel>
        {data?.devOutbox && <DevOutboxPanel />}
        <ConfigPanel />
        <Panel>
          <Tools />
        </Panel>
        <Panel>
          <DemoRequestsPanel />
        </Panel>
      </Stack>
    </Container>
  );
}
