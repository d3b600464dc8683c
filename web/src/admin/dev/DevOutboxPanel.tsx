import { Accordion, Alert, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, expect } from '../../app/api';
import { failureMessage } from './queries';

const SECTION = 'outbox';
/** The newest of each: enough to see that texts are written, not a mail client. */
const SHOWN = 15;

/**
 * Demo deployments only: what Locus would have sent, newest first. Read when opened and on
 * Refresh, not every few seconds: each read is written to the audit trail.
 */
function useDevOutbox(enabled: boolean) {
  return useQuery({
    queryKey: ['platform', 'dev-outbox'],
    queryFn: async () => {
      const [sms, email] = await Promise.all([
        api.devOutbox.sms({ query: {} }),
        api.devOutbox.email({ query: {} }),
      ]);
      return { sms: expect(sms, 200).slice(0, SHOWN), email: expect(email, 200).slice(0, SHOWN) };
    },
    enabled,
    staleTime: Infinity,
  });
}

const when = (iso: string) => new Date(iso).toLocaleTimeString();

export function DevOutboxPanel() {
  const [opened, setOpened] = useState<string | null>(null);
  const outbox = useDevOutbox(opened === SECTION);
  return (
    <Accordion variant="contained" value={opened} onChange={setOpened} chevronPosition="left">
      <Accordion.Item value={SECTION}>
        <Accordion.Control>
          <Text fw={600}>The dev outbox: texts and e-mails that did not leave</Text>
        </Accordion.Control>
        <Accordion.Panel>
          <Stack gap="md">
            <Group justify="flex-end">
              <Button
                size="xs"
                variant="default"
                onClick={() => void outbox.refetch()}
                loading={outbox.isFetching}
              >
                Refresh the outbox
              </Button>
            </Group>
            {outbox.isPending && <Loader size="sm" aria-label="Loading the dev outbox" />}
            {outbox.isError && (
              <Alert color="red" role="alert">
                The dev outbox could not be read: {failureMessage(outbox.error)}
              </Alert>
            )}
            {outbox.data && (
              <>
                <Title order={3} size="h5">
                  Texts, newest first
                </Title>
                {outbox.data.sms.length === 0 ? (
                  <Text size="sm">No text written yet.</Text>
                ) : (
                  <Table.ScrollContainer minWidth={0}>
                    <Table>
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>At</Table.Th>
                          <Table.Th>To</Table.Th>
                          <Table.Th>Text</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {outbox.data.sms.map((text) => (
                          <Table.Tr key={`${text.createdAt}-${text.to}-${text.body.length}`}>
                            <Table.Td>{when(text.createdAt)}</Table.Td>
                            <Table.Td>{text.to}</Table.Td>
                            <Table.Td style={{ overflowWrap: 'anywhere' }}>{text.body}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Table.ScrollContainer>
                )}
                <Title order={3} size="h5">
                  E-mails, newest first
                </Title>
                {outbox.data.email.length === 0 ? (
                  <Text size="sm">No e-mail written yet.</Text>
                ) : (
                  <Table.ScrollContainer minWidth={0}>
                    <Table>
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>At</Table.Th>
                          <Table.Th>To</Table.Th>
                          <Table.Th>Subject</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {outbox.data.email.map((mail) => (
                          <Table.Tr key={`${mail.createdAt}-${mail.to}-${mail.subject}`}>
                            <Table.Td>{when(mail.createdAt)}</Table.Td>
                            <Table.Td style={{ overflowWrap: 'anywhere' }}>{mail.to}</Table.Td>
                            <Table.Td style={{ overflowWrap: 'anywhere' }}>{mail.subject}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Table.ScrollContainer>
                )}
              </>
            )}
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
