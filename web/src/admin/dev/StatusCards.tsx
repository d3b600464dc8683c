import type { InstanceStatus, PlatformStatus, StatusLevel } from '@locus/contract';
import { worstLevel } from '@locus/contract';
import { Card, Group, List, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import {
  countOf,
  formatBytes,
  formatBytesOf,
  formatDuration,
  formatMs,
  formatRate,
  formatRatio,
  formatWaiting,
  msBetween,
} from './format';
import { LevelBadge, levelStyle } from './LevelBadge';

type Figures = [label: string, value: ReactNode][];

/** Label / value pairs, read as a description list. */
function FigureList({ figures }: { figures: Figures }) {
  return (
    <dl
      style={{
        display: 'grid',
        gridTemplateColumns: 'minmax(7rem, max-content) 1fr',
        columnGap: 'var(--mantine-spacing-sm)',
        rowGap: 4,
        margin: 0,
        fontSize: 'var(--mantine-font-size-sm)',
      }}
    >
      {figures.map(([label, value]) => (
        <FigureRow key={label} label={label} value={value} />
      ))}
    </dl>
  );
}

function FigureRow({ label, value }: { label: string; value: ReactNode }) {
  return (
    <>
      <dt style={{ color: 'var(--mantine-color-dimmed)' }}>{label}</dt>
      <dd style={{ margin: 0, overflowWrap: 'anywhere' }}>{value}</dd>
    </>
  );
}

/** Why a card is amber or red, one sentence per figure (the server writes them). */
function Notes({ notes }: { notes: readonly string[] }) {
  if (notes.length === 0) return null;
  return (
    <List size="sm" spacing={2} data-testid="status-notes">
      {notes.map((note) => (
        <List.Item key={note}>{note}</List.Item>
      ))}
    </List>
  );
}

/**
 * One status card: a region named by its title, its level in words, icon and colour (a coloured
 * edge as well, for scanning), its figures and its notes.
 */
function StatusCard({
  title,
  subtitle,
  level,
  notes,
  children,
}: {
  title: string;
  subtitle?: string;
  level: StatusLevel;
  notes: readonly string[];
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      component="section"
      aria-labelledby={headingId}
      data-level={level}
      style={{ borderLeft: `6px solid ${levelStyle[level].background}`, minWidth: 0 }}
    >
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <div style={{ minWidth: 0 }}>
            <Title order={3} fz="md" id={headingId} style={{ overflowWrap: 'anywhere' }}>
              {title}
            </Title>
            {subtitle && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {subtitle}
              </Text>
            )}
          </div>
          <LevelBadge level={level} />
        </Group>
        {children}
        <Notes notes={notes} />
      </Stack>
    </Card>
  );
}

const orNone = (value: number | null, format: (value: number) => string, none = '—') =>
  value === null ? none : format(value);

function InstanceCard({ instance, now }: { instance: InstanceStatus; now: string }) {
  const kind = instance.role === 'api' ? 'API instance' : 'Worker';
  const heartbeatAge = msBetween(instance.lastHeartbeatAt, now);
  return (
    <StatusCard
      title={`${kind} ${instance.id}`}
      subtitle={`${instance.hostname}, process ${instance.pid}`}
      level={instance.level}
      notes={instance.notes}
    >
      <FigureList
        figures={[
          [
            'State',
            instance.alive
              ? 'Alive'
              : instance.stoppedAt
                ? 'Stopped on purpose (shut down cleanly)'
                : 'Not answering: its heartbeat has expired',
          ],
          ['Version', instance.version],
          ['Up for', formatDuration(msBetween(instance.startedAt, now))],
          ['Last heartbeat', `${formatDuration(heartbeatAge)} ago`],
          ['Event-loop lag', formatMs(instance.eventLoopLagMs)],
          [
            'Memory',
            `${formatBytes(instance.memoryRssBytes)} resident, ${formatBytes(instance.heapUsedBytes)} heap`,
          ],
        ]}
      />
    </StatusCard>
  );
}

function PostgresCard({ postgres }: { postgres: PlatformStatus['postgres'] }) {
  const tables = postgres.largestTables.slice(0, 5);
  return (
    <StatusCard title="Postgres" level={postgres.level} notes={postgres.notes}>
      <FigureList
        figures={[
          ['Reachable', postgres.reachable ? 'Yes' : 'No'],
          ['Round trip', orNone(postgres.roundTripMs, formatMs)],
          [
            'This pool',
            `${postgres.pool.inUse} in use of ${postgres.pool.max} (${postgres.pool.open} open)`,
          ],
          [
            'Server',
            postgres.server
              ? `${countOf(postgres.server.connections, 'connection')} of ${postgres.server.maxConnections}`
              : '—',
          ],
          [
            'Largest tables',
            tables.length === 0
              ? '—'
              : tables.map((table) => `${table.name} ${formatBytes(table.bytes)}`).join(', '),
          ],
        ]}
      />
    </StatusCard>
  );
}

function RedisCard({ redis }: { redis: PlatformStatus['redis'] }) {
  return (
    <StatusCard title="Redis" level={redis.level} notes={redis.notes}>
      <FigureList
        figures={[
          ['Reachable', redis.reachable ? 'Yes' : 'No'],
          ['Round trip', orNone(redis.roundTripMs, formatMs)],
          [
            'Memory',
            redis.usedMemoryBytes === null
              ? '—'
              : formatBytesOf(redis.usedMemoryBytes, redis.maxMemoryBytes),
          ],
          ['Clients', orNone(redis.connectedClients, (count) => countOf(count, 'client'))],
          ['Eviction policy', redis.evictionPolicy ?? '—'],
        ]}
      />
    </StatusCard>
  );
}

function QueuesCard({ queues }: { queues: PlatformStatus['queues'] }) {
  const level = worstLevel(queues.map((queue) => queue.level));
  const notes = queues.flatMap((queue) => queue.notes);
  return (
    <StatusCard title="Queues" level={level} notes={notes}>
      {queues.length === 0 ? (
        <Text size="sm">No queue reported.</Text>
      ) : (
        // Wider than a phone: it scrolls sideways, so it takes the focus, to scroll by keyboard.
        <Table.ScrollContainer
          minWidth={460}
          type="native"
          tabIndex={0}
          role="region"
          aria-label="Queues table, scrolls sideways"
        >
          <Table verticalSpacing={4} fz="sm" aria-label="Each queue's jobs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Queue</Table.Th>
                <Table.Th>Level</Table.Th>
                <Table.Th>Waiting</Table.Th>
                <Table.Th>Active</Table.Th>
                <Table.Th>Delayed</Table.Th>
                <Table.Th>Failed</Table.Th>
                <Table.Th>Done, last min</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {queues.map((queue) => (
                <Table.Tr key={queue.name}>
                  <Table.Th scope="row" fw={500}>
                    {queue.name}
                  </Table.Th>
                  <Table.Td>
                    <LevelBadge level={queue.level} />
                  </Table.Td>
                  <Table.Td>{formatWaiting(queue.waiting, queue.oldestWaitingAgeMs)}</Table.Td>
                  <Table.Td>{queue.active}</Table.Td>
                  <Table.Td>{queue.delayed}</Table.Td>
                  <Table.Td>{queue.failed}</Table.Td>
                  <Table.Td>{queue.completedLastMinute}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </StatusCard>
  );
}

function RealtimeCard({ realtime }: { realtime: PlatformStatus['realtime'] }) {
  const sockets = Object.entries(realtime.sockets);
  return (
    <StatusCard title="Realtime" level={realtime.level} notes={realtime.notes}>
      <FigureList
        figures={[
          [
            'Sockets',
            sockets.length === 0
              ? 'none open'
              : sockets.map(([kind, count]) => `${count} ${kind}`).join(', '),
          ],
          ['Fixes', formatRate(realtime.fixesPerSecond)],
          [
            'Delivery',
            realtime.deliveryP99Ms === null
              ? 'nothing delivered in the last minute'
              : `p50 ${orNone(realtime.deliveryP50Ms, formatMs)}, p99 ${formatMs(realtime.deliveryP99Ms)}`,
          ],
          [
            'Not yet stored',
            realtime.persistencePendingRows === 0
              ? 'nothing waiting'
              : `${countOf(realtime.persistencePendingRows, 'row')}, oldest ${formatMs(realtime.persistenceOldestMs)}`,
          ],
        ]}
      />
    </StatusCard>
  );
}

type Deliveries = PlatformStatus['messaging']['sms'][number];

function deliveryLine(rows: readonly Deliveries[]): ReactNode {
  if (rows.length === 0) return 'none sent';
  return rows
    .map((row) => {
      const ratio = row.sent > 0 ? ` (${formatRatio(row.failed / row.sent)} failed)` : '';
      return `${row.provider}: ${row.sent} sent, ${row.delivered} delivered, ${row.failed} failed${ratio}`;
    })
    .join('; ');
}

function MessagingCard({ messaging }: { messaging: PlatformStatus['messaging'] }) {
  return (
    <StatusCard
      title="Texts and e-mails"
      subtitle="The last hour, by provider"
      level={messaging.level}
      notes={messaging.notes}
    >
      <FigureList
        figures={[
          ['Texts', deliveryLine(messaging.sms)],
          ['E-mails', deliveryLine(messaging.email)],
        ]}
      />
    </StatusCard>
  );
}

function LookupCard({ lookups }: { lookups: PlatformStatus['lookups'] }) {
  return (
    <StatusCard
      title="Location provider"
      subtitle={`${lookups.provider}, the last hour`}
      level={lookups.level}
      notes={lookups.notes}
    >
      <FigureList
        figures={[
          ['Lookups', `${lookups.lookups} (${lookups.succeeded} found the phone)`],
          ['Success rate', orNone(lookups.successRatio, formatRatio)],
          ['p95 answer', orNone(lookups.p95Ms, formatMs)],
        ]}
      />
    </StatusCard>
  );
}

/** The overall level, said in a polite live region: it changes seldom, and matters when it does. */
export function OverallStatus({ status }: { status: PlatformStatus }) {
  const updated = new Date(status.generatedAt).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return (
    <Group gap="sm" wrap="wrap" data-testid="overall-status">
      <Text fw={700} aria-live="polite" component="div">
        <Group gap="xs" wrap="nowrap">
          Overall <LevelBadge level={status.level} size="lg" />
        </Group>
      </Text>
      <Text size="sm" c="dimmed">
        Updated at {updated}
      </Text>
    </Group>
  );
}

/** Every card of the status, in a fixed order that operators learn by place. */
export function StatusCards({ status }: { status: PlatformStatus }) {
  const now = status.generatedAt;
  const instances = [...status.instances].sort(
    (a, b) => a.role.localeCompare(b.role) || a.id.localeCompare(b.id),
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md">
      <StatusCard
        title="Workers"
        subtitle="Texts, e-mails and lookups go out through them"
        level={status.workers.level}
        notes={status.workers.notes}
      >
        <FigureList figures={[['Alive', countOf(status.workers.alive, 'worker')]]} />
      </StatusCard>
      <PostgresCard postgres={status.postgres} />
      <RedisCard redis={status.redis} />
      <RealtimeCard realtime={status.realtime} />
      <MessagingCard messaging={status.messaging} />
      <LookupCard lookups={status.lookups} />
      <div style={{ gridColumn: '1 / -1', minWidth: 0 }}>
        <QueuesCard queues={status.queues} />
      </div>
      {instances.map((instance) => (
        <InstanceCard key={instance.id} instance={instance} now={now} />
      ))}
    </SimpleGrid>
  );
}
