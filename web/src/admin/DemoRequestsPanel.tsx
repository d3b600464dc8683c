import { Alert, Anchor, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, expect } from '../app/api';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Book a Demo requests from the public site, newest first (platform admins only). */
export function DemoRequestsPanel() {
  const requests = useQuery({
    queryKey: ['demo-requests'],
    queryFn: async () => expect(await api.demoRequests.list(), 200),
  });

  return (
    <Stack gap="xs" component="section" aria-labelledby="demo-requests-title">
      <Title order={2} id="demo-requests-title" size="h4">
        Demo requests
      </Title>
      {requests.isPending && <Loader size="sm" aria-label="Loading demo requests" />}
      {requests.isError && (
        <Alert color="red" role="alert">
          The demo requests could not be loaded: {requests.error.message}
        </Alert>
      )}
      {requests.data?.length === 0 && <Text c="dimmed">No demo requests yet.</Text>}
      {requests.data && requests.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Received</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Agency</Table.Th>
                <Table.Th>Contact</Table.Th>
                <Table.Th>Comment</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {requests.data.map((request) => (
                <Table.Tr key={request.id}>
                  <Table.Td>{dateTime.format(new Date(request.createdAt))}</Table.Td>
                  <Table.Td>
                    {request.firstName} {request.lastName}
                  </Table.Td>
                  <Table.Td>{request.companyName}</Table.Td>
                  <Table.Td>
                    <Anchor href={`mailto:${request.email}`}>{request.email}</Anchor>
                    <Text size="sm">{request.phoneNumber}</Text>
                  </Table.Td>
                  <Table.Td>{request.comment ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
