import { Button, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconSchool } from '@tabler/icons-react';
import { useId } from 'react';
import { Link } from 'react-router';

/**
 * /training, practice mode (issue 14): the whole dashboard flow against a simulated caller.
 * Starting it opens the dashboard in practice mode (`/dashboard?practice=1`), where every
 * session started is a practice session: nobody is texted, the provider is not asked, and
 * nothing is counted in the team's metrics.
 */
export function PracticeSection() {
  const headingId = useId();
  return (
    <Paper component="section" aria-labelledby={headingId} withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={2} fz={20} id={headingId}>
          Practice mode
        </Title>
        <Text>
          Run the whole dashboard flow against a simulated caller. Locate any number: the automatic
          lookup finds nothing, so you send the text as you would for real. No text is sent to
          anyone and nothing counts in your team&apos;s metrics; a banner marks the dashboard as
          practice until you leave it.
        </Text>
        <Text>The simulated caller, who speaks Spanish:</Text>
        <List spacing={4}>
          <List.Item>refuses the location permission at first, then allows it;</List.Item>
          <List.Item>walks a short route, one position every few seconds;</List.Item>
          <List.Item>goes stale: stays connected but sends no position;</List.Item>
          <List.Item>stops sharing;</List.Item>
          <List.Item>answers in the chat, in Spanish, once you open it.</List.Item>
        </List>
        <div>
          <Button
            component={Link}
            to="/dashboard?practice=1"
            leftSection={<IconSchool size={18} aria-hidden />}
          >
            Start practice
          </Button>
        </div>
      </Stack>
    </Paper>
  );
}
