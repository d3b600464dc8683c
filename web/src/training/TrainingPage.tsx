import { Container, Stack, Title } from '@mantine/core';
import { PracticeSection } from './PracticeSection';
import { TrainingVideos } from './TrainingVideos';

/**
 * /training (SPEC.md §2, training layout; issue 14): one page of sections, each with its own
 * `h2`. Today the training videos; practice mode is another section here, after them.
 */
export function TrainingPage() {
  return (
    <Container size="lg" py="md">
      <Stack gap="xl">
        <Title order={1} fz={26}>
          Training
        </Title>
        <TrainingVideos />
        <PracticeSection />
      </Stack>
    </Container>
  );
}
