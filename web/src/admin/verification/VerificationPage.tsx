import { PagerNav } from '../PagerNav';
import { EmailDomain, waitingReasonLabels, type WaitingUser } from '@locus/contract';
import {
  Alert,
  Badge,
  Button,
  Card,
  CloseButton,
  Container,
  Group,
  List,
  Loader,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, expect } from '../../app/api';
import { ApproveModal, RejectModal } from './DecisionModals';
import {
  closableNotice,
  failureMessage,
  fieldIssue,
  useClearedDomains,
  useRefreshVerification,
  useVerificationQueue,
} from './queries';

const pageSize = 25;

const registeredOn = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/** Why the user waits, in words, with the agency name they typed. */
function Reasons({ user }: { user: WaitingUser }) {
  return (
    <Stack gap={4}>
      {user.reasons.map((reason) => (
        <div key={reason}>
          <Badge variant="light" color={reason === 'unlisted-agency' ? 'blue' : 'grape'}>
            {waitingReasonLabels[reason]}
          </Badge>
          {reason === 'unlisted-agency' && user.unlistedAgencyName && (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              Typed: {user.unlistedAgencyName}
            </Text>
          )}
          {reason === 'domain-not-cleared' && (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {user.domain}
            </Text>
          )}
        </div>
      ))}
    </Stack>
  );
}

function QueueSection() {
  const headingId = useId();
  const [page, setPage] = useState(1);
  const [approving, setApproving] = useState<WaitingUser | null>(null);
  const [rejecting, setRejecting] = useState<WaitingUser | null>(null);
  const queue = useVerificationQueue(page, pageSize);
  const total = queue.data?.total ?? 0;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h3" id={headingId}>
          Waiting for verification
        </Title>
        <Text size="sm">
          People with an e-mail domain that is not cleared (even if a team added them), and people
          on no team who registered with an agency that is not listed. Oldest first.
        </Text>
        {queue.isPending && <Loader size="sm" aria-label="Loading the queue" />}
        {queue.isError && (
          <Alert color="red" role="alert">
            The queue could not be loaded: {failureMessage(queue.error)}
          </Alert>
        )}
        {queue.data && queue.data.items.length === 0 && <Text>Nobody is waiting.</Text>}
        {queue.data && queue.data.items.length > 0 && (
          <Table.ScrollContainer minWidth={0}>
            <Table verticalSpacing="xs" aria-labelledby={headingId}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Person</Table.Th>
                  <Table.Th>Why they wait</Table.Th>
                  <Table.Th visibleFrom="sm">Registered</Table.Th>
                  <Table.Th>Decision</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {queue.data.items.map((user) => (
                  <Table.Tr key={user.id}>
                    <Table.Td>
                      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                        {user.firstName} {user.lastName}
                      </Text>
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {user.email}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Reasons user={user} />
                    </Table.Td>
                    <Table.Td visibleFrom="sm">{registeredOn(user.registeredAt)}</Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="wrap">
                        <Button
                          size="xs"
                          onClick={() => setApproving(user)}
                          aria-label={`Approve ${user.firstName} ${user.lastName}`}
                        >
                          Approve
                        </Button>
                        <Button
                          size="xs"
                          variant="outline"
                          color="red"
                          onClick={() => setRejecting(user)}
                          aria-label={`Reject ${user.firstName} ${user.lastName}`}
                        >
                          Reject
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <PagerNav
          label="Pages of the queue"
          page={page}
          pageSize={pageSize}
          total={total}
          noun="waiting"
          onPage={setPage}
        />
      </Stack>
      <ApproveModal user={approving} onClose={() => setApproving(null)} />
      <RejectModal user={rejecting} onClose={() => setRejecting(null)} />
    </Card>
  );
}

function ClearedDomainsSection() {
  const headingId = useId();
  const [domain, setDomain] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const domains = useClearedDomains();
  const refresh = useRefreshVerification();
  const parsed = EmailDomain.safeParse(domain);
  const add = useMutation({
    mutationFn: async (value: string) =>
      expect(await api.verification.addDomain({ body: { domain: value } }), 201),
    onSuccess: async (added) => {
      notifications.show({ ...closableNotice, color: 'green', message: `${added.domain} cleared` });
      setDomain('');
      setSubmitted(false);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: async (value: string) =>
      expect(await api.verification.removeDomain({ params: { domain: value } }), 204),
    onSuccess: async (_answer, value) => {
      notifications.show({ ...closableNotice, color: 'green', message: `${value} removed` });
      await refresh();
    },
  });

  const domainError = submitted
    ? parsed.success
      ? fieldIssue(add.error, 'domain')
      : (parsed.error.issues[0]?.message ?? 'Enter a domain')
    : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    add.reset();
    if (parsed.success) add.mutate(parsed.data);
  }

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h3" id={headingId}>
          Cleared domains
        </Title>
        <Text size="sm">
          Confirmed users with an address on these domains may locate once they are on an active
          team.
        </Text>
        <form onSubmit={submit} noValidate>
          <Group align="flex-start" gap="xs" wrap="wrap">
            <TextInput
              label="Domain to clear"
              placeholder="county.gov"
              value={domain}
              onChange={(event) => setDomain(event.currentTarget.value)}
              error={domainError}
              miw={200}
              style={{ flex: '1 1 200px' }}
            />
            <Button type="submit" mt={25} loading={add.isPending}>
              Add domain
            </Button>
          </Group>
        </form>
        {add.isError && !fieldIssue(add.error, 'domain') && (
          <Alert color="red" role="alert">
            {failureMessage(add.error)}
          </Alert>
        )}
        {remove.isError && (
          <Alert color="red" role="alert">
            {failureMessage(remove.error)}
          </Alert>
        )}
        {domains.isPending && <Loader size="sm" aria-label="Loading the cleared domains" />}
        {domains.isError && (
          <Alert color="red" role="alert">
            The cleared domains could not be loaded: {failureMessage(domains.error)}
          </Alert>
        )}
        {domains.data && domains.data.length === 0 && <Text>No domain is cleared.</Text>}
        {domains.data && domains.data.length > 0 && (
          <List listStyleType="none" spacing={4} aria-label="Cleared domains">
            {domains.data.map((row) => (
              <List.Item key={row.domain}>
                <Group gap={6} wrap="nowrap">
                  <Text style={{ overflowWrap: 'anywhere' }}>{row.domain}</Text>
                  <CloseButton
                    size="sm"
                    aria-label={`Remove ${row.domain}`}
                    disabled={remove.isPending}
                    onClick={() => remove.mutate(row.domain)}
                  />
                </Group>
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Card>
  );
}

/** /admin/verification/edit: the platform owner's queue of users to vet, and cleared domains. */
export function VerificationPage() {
  return (
    <Container size="lg" py="md">
      <Stack gap="lg">
        <Title order={1} fz={26}>
          Verification
        </Title>
        <QueueSection />
        <ClearedDomainsSection />
      </Stack>
    </Container>
  );
}
