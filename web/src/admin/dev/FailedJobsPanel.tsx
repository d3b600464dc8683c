import type { FailedJob } from '@locus/contract';
import {
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, expect } from '../../app/api';
import { PagerNav } from '../PagerNav';
import { formatDuration, msBetween } from './format';
import { failureMessage, useFailedJobs, useRefreshPlatform } from './queries';

const pageSize = 20;

/** A notice's close button is an icon alone: it needs a name (WCAG 4.1.2). */
const closableNotice = { closeButtonProps: { 'aria-label': 'Close notice' } };

type JobRef = Pick<FailedJob, 'queue' | 'id' | 'name'>;

function JobActions({ job, onDiscard }: { job: FailedJob; onDiscard: (job: JobRef) => void }) {
  const refresh = useRefreshPlatform();
  const retry = useMutation({
    mutationFn: async () =>
      expect(await api.platformJobs.retryJob({ params: { queue: job.queue, jobId: job.id } }), 200),
    onSuccess: () =>
      notifications.show({
        message: `${job.name} (${job.queue} #${job.id}) will run again.`,
        color: 'green',
        ...closableNotice,
      }),
    // A 409 (the job is gone, or no longer failed) says why; the table then shows how it is.
    onError: (error) =>
      notifications.show({
        message: `Not retried: ${failureMessage(error)}`,
        color: 'red',
        ...closableNotice,
      }),
    onSettled: () => refresh(),
  });
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="xs"
        variant="default"
        loading={retry.isPending}
        onClick={() => retry.mutate()}
        aria-label={`Retry ${job.name} #${job.id}`}
      >
        Retry
      </Button>
      <Button
        size="xs"
        variant="default"
        color="red"
        onClick={() => onDiscard(job)}
        aria-label={`Discard ${job.name} #${job.id}`}
      >
        Discard
      </Button>
    </Group>
  );
}

/** Asks before a discard: the job will not run again, and nothing brings it back. */
function DiscardModal({ job, onClose }: { job: JobRef | null; onClose: () => void }) {
  const refresh = useRefreshPlatform();
  const discard = useMutation({
    mutationFn: async (target: JobRef) =>
      expect(
        await api.platformJobs.discardJob({ params: { queue: target.queue, jobId: target.id } }),
        204,
      ),
    onSuccess: (_, target) => {
      notifications.show({
        message: `${target.name} (${target.queue} #${target.id}) discarded.`,
        ...closableNotice,
      });
      onClose();
    },
    onError: (error) => {
      notifications.show({
        message: `Not discarded: ${failureMessage(error)}`,
        color: 'red',
        ...closableNotice,
      });
      onClose();
    },
    onSettled: () => refresh(),
  });
  return (
    <Modal opened={job !== null} onClose={onClose} title="Discard this job?">
      {job && (
        <Stack gap="md">
          <Text size="sm">
            {job.name} ({job.queue} #{job.id}) will be removed and will not run again. This cannot
            be undone.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button color="red" loading={discard.isPending} onClick={() => discard.mutate(job)}>
              Discard job
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/**
 * Failed background jobs of every queue, newest first, with Retry and Discard (both audited by
 * the API). A job retried or discarded elsewhere meanwhile gets a 409, said in a notice.
 */
export function FailedJobsPanel() {
  const headingId = useId();
  const [page, setPage] = useState(1);
  const [discarding, setDiscarding] = useState<JobRef | null>(null);
  const jobs = useFailedJobs(page, pageSize);
  const data = jobs.data;
  // The page emptied by retries and discards: show the last one that still has rows.
  const lastPage = data ? Math.max(1, Math.ceil(data.total / pageSize)) : page;
  if (data && page > lastPage) setPage(lastPage);

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId}>
        Failed jobs
      </Title>
      {jobs.isPending && <Loader size="sm" aria-label="Loading the failed jobs" />}
      {jobs.isError && (
        <Alert color="red" role="alert">
          The failed jobs could not be loaded: {failureMessage(jobs.error)}
        </Alert>
      )}
      {data && data.items.length === 0 && <Text size="sm">No failed job in any queue.</Text>}
      {data && data.items.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" fz="sm" aria-labelledby={headingId}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Queue</Table.Th>
                <Table.Th>Job</Table.Th>
                <Table.Th>Reason</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Failed</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((job) => (
                <Table.Tr key={`${job.queue}/${job.id}`}>
                  <Table.Td>{job.queue}</Table.Td>
                  <Table.Td>
                    {job.name} <Text span size="xs" c="dimmed">{`#${job.id}`}</Text>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere', maxWidth: 360 }}>
                    {job.failedReason}
                  </Table.Td>
                  <Table.Td>{`${job.attemptsMade} of ${job.maxAttempts}`}</Table.Td>
                  <Table.Td>
                    {job.failedAt
                      ? `${formatDuration(msBetween(job.failedAt, new Date().toISOString()))} ago`
                      : '—'}
                  </Table.Td>
                  <Table.Td>
                    <JobActions job={job} onDiscard={setDiscarding} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <PagerNav
        label="Pages of the failed jobs"
        page={page}
        pageSize={pageSize}
        total={data?.total ?? 0}
        noun="failed jobs"
        onPage={setPage}
      />
      <DiscardModal job={discarding} onClose={() => setDiscarding(null)} />
    </Stack>
  );
}
