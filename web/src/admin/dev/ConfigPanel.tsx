import { Accordion, Alert, Badge, Loader, Text } from '@mantine/core';
import { useState } from 'react';
import { failureMessage, usePlatformConfig } from './queries';

const SECTION = 'configuration';

/**
 * This API instance's configuration, collapsed until asked for, every key, password and token
 * redacted by the API (the screen never receives a secret, so it cannot show one).
 */
export function ConfigPanel() {
  const [opened, setOpened] = useState<string | null>(null);
  const config = usePlatformConfig(opened === SECTION);
  return (
    <Accordion variant="contained" value={opened} onChange={setOpened} chevronPosition="left">
      <Accordion.Item value={SECTION}>
        <Accordion.Control>
          <Text fw={600}>Configuration of this API instance</Text>
        </Accordion.Control>
        <Accordion.Panel>
          {config.isPending && <Loader size="sm" aria-label="Loading the configuration" />}
          {config.isError && (
            <Alert color="red" role="alert">
              The configuration could not be loaded: {failureMessage(config.error)}
            </Alert>
          )}
          {config.data && (
            // Key above value: long values (URLs, JSON) read whole at any width, nothing
            // scrolls sideways on a phone.
            <dl style={{ margin: 0 }}>
              {config.data.entries.map((entry) => (
                <div
                  key={entry.key}
                  style={{
                    padding: '6px 0',
                    borderBottom: '1px solid var(--mantine-color-default-border)',
                  }}
                >
                  <dt style={{ fontFamily: 'monospace', fontWeight: 600, fontSize: 14 }}>
                    {entry.key}
                  </dt>
                  <dd
                    style={{
                      margin: 0,
                      fontFamily: 'monospace',
                      fontSize: 14,
                      overflowWrap: 'anywhere',
                    }}
                  >
                    {entry.redacted ? (
                      <Badge variant="default" radius="sm" style={{ textTransform: 'none' }}>
                        redacted
                      </Badge>
                    ) : entry.value === null ? (
                      <Text span size="sm" c="dimmed">
                        not set
                      </Text>
                    ) : (
                      entry.value
                    )}
                  </dd>
                </div>
              ))}
            </dl>
          )}
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
