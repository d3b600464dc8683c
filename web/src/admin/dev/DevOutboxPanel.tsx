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

function OutboxTable(props: {
  title: string;
  empty: string;
  columns: readonly string[];
  rows: readonly (readonly string[])[];
}) {
  return (
    <>
      <Title order={3} size="h5">
        {props.title}
      </Title>
      {props.rows.length === 0 ? (
        <Text size="sm">{props.empty}</Text>
      ) : (
        <Table.ScrollContainer minWidth={0}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                {props.columns.map((column) => (
                  <Table.Th key={column}>{column}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {props.rows.map((cells, index) => (
                // Newest first and never reordered while shown: the index is a stable key.
                <Table.Tr key={index}>
                  {cells.map((cell, column) => (
                    <Table.Td key={column} style={{ overflowWrap: 'anywhere' }}>
                      {cell}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}

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
                <OutboxTable
                  title="Texts, newest first"
                  empty="No text written yet."
                  columns={['At', 'To', 'Text']}
                  rows={outbox.data.sms.map((text) => [when(text.createdAt), text.to, text.body])}
                />
                <OutboxTable
                  title="E-mails, newest first"
                  empty="No e-mail written yet."
                  columns={['At', 'To', 'Subject']}
                  rows={outbox.data.email.map((mail) => [
                    when(mail.createdAt),
                    mail.to,
                    mail.subject,
                  ])}
                />
              </>
            )}
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
