import { Badge, Card, Container, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * A screen a later release builds. It says what will be here and shows nothing pretending to
 * be data.
 */
export function ComingSoon({
  title,
  summary,
  features,
  children,
}: {
  title: string;
  summary: string;
  features: string[];
  children?: ReactNode;
}) {
  return (
    <Container size="sm" py="xl">
      <Card withBorder radius="lg" padding="xl" shadow="xs">
        <Stack gap="md">
          <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
            <IconTools size={26} />
          </ThemeIcon>
          <Badge variant="light" color="signal" w="fit-content">
            Coming soon
          </Badge>
          <Title order={1} fz={26}>
            {title}
          </Title>
          <Text>{summary}</Text>
          <div>
            <Title order={2} fz="md" mb={6}>
              What this screen will do
            </Title>
            <List spacing={6} size="sm">
              {features.map((feature) => (
                <List.Item key={feature}>{feature}</List.Item>
              ))}
            </List>
          </div>
          {children}
        </Stack>
      </Card>
    </Container>
  );
}
