import {
  Alert,
  Anchor,
  Button,
  Grid,
  Group,
  Loader,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState } from 'react';
import { usePublicConfig } from '../public-site/public-config';
import { useTrainingVideos } from './queries';
import { VideoList } from './VideoList';
import { VideoPlayer } from './VideoPlayer';

/**
 * The training videos section: the player, with the deployment's list beside it (below it on a
 * narrow screen). It opens on the first video the user has not watched; choosing another moves
 * focus to the player's heading.
 */
export function TrainingVideos() {
  const headingId = useId();
  const listHeadingId = useId();
  const videos = useTrainingVideos();
  const channel = usePublicConfig().data?.links.trainingVideos ?? null;
  const [chosenId, setChosenId] = useState<string | null>(null);
  const playerHeading = useRef<HTMLHeadingElement>(null);

  const list = videos.data?.videos ?? [];
  // The first video not watched yet, kept once shown: finishing it must not switch the player.
  const openingId = list.find((video) => video.watchedAt === null)?.id ?? list[0]?.id ?? null;
  useEffect(() => {
    if (chosenId === null && openingId !== null) setChosenId(openingId);
  }, [chosenId, openingId]);
  const selected = list.find((video) => video.id === (chosenId ?? openingId)) ?? list[0] ?? null;
  const watchedCount = list.filter((video) => video.watchedAt !== null).length;

  function choose(id: string) {
    setChosenId(id);
    // After the player shows the new video.
    requestAnimationFrame(() => playerHeading.current?.focus());
  }

  return (
    <Stack gap="md" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" align="baseline" wrap="wrap">
        <Title order={2} size="h3" id={headingId}>
          Training videos
        </Title>
        {list.length > 0 && (
          <Text size="sm" c="dimmed">
            {watchedCount} of {list.length} watched
          </Text>
        )}
      </Group>
      {videos.isPending && <Loader size="sm" aria-label="Loading the training videos" />}
      {videos.isError && (
        <Alert color="red" title="The training videos could not be loaded">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">Check your connection and try again.</Text>
            <Button size="xs" variant="default" onClick={() => void videos.refetch()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      )}
      {videos.isSuccess && list.length === 0 && (
        <Text>No training videos have been set up for Locus here yet.</Text>
      )}
      {selected && (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 7 }}>
            {/* One player per video: nothing of the last one (time, a failed save) carries over. */}
            <VideoPlayer key={selected.id} video={selected} headingRef={playerHeading} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack gap="xs">
              <Text fw={600} id={listHeadingId}>
                All videos
              </Text>
              <VideoList
                videos={list}
                selectedId={selected.id}
                onSelect={choose}
                labelledBy={listHeadingId}
              />
            </Stack>
          </Grid.Col>
        </Grid>
      )}
      {channel && (
        <Text size="sm">
          More videos on{' '}
          <Anchor href={channel} target="_blank" rel="noopener noreferrer" underline="always">
            our training channel
            <IconExternalLink size={14} aria-hidden style={{ marginLeft: 4, verticalAlign: -2 }} />
            <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
          </Anchor>
        </Text>
      )}
    </Stack>
  );
}
