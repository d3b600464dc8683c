import { Anchor, Box, Center, Container, Group, Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { MAIN_CONTENT_ID, SkipLink } from '../SkipLink';
import { Brand } from './Brand';

/** The default layout: account pages on a quiet background, one card in the middle. */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <Box mih="100vh" bg="gray.1" py={48}>
      <SkipLink />
      <Container size={480}>
        <Center component="header" mb="xl">
          <Brand to="/" />
        </Center>
        <Paper
          component="main"
          id={MAIN_CONTENT_ID}
          tabIndex={-1}
          withBorder
          shadow="sm"
          radius="lg"
          p={{ base: 'lg', sm: 36 }}
        >
          {children}
        </Paper>
        <footer>
          <Group justify="center" mt="lg" gap="lg">
            <Anchor component={Link} to="/" size="sm" c="gray.7">
              Home
            </Anchor>
            <Anchor component={Link} to="/about" size="sm" c="gray.7">
              About Locus
            </Anchor>
          </Group>
          <Text ta="center" size="xs" c="gray.7" mt="sm">
            Consent-based caller location for emergency services
          </Text>
        </footer>
      </Container>
    </Box>
  );
}
