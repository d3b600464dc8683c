import type { TrainingVideo } from '@locus/contract';
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useId, type Ref } from 'react';
import { ApiError } from '../app/api';
import { formatDuration, formatWatchedDate } from './format';
import { useMarkWatched } from './queries';

function failureMessage(error: unknown): string {
  return error instanceof ApiError && error.body?.message
    ? error.body.message
    : 'Your watched state could not be saved. Please try again.';
}

/**
 * The selected video in the browser's own player (its controls work from the keyboard), with
 * captions when the deployment has them. Playing it to the end marks it watched; the button
 * does the same, or undoes it, without playing.
 */
export function VideoPlayer({
  video,
  headingRef,
}: {
  video: TrainingVideo;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const headingId = useId();
  const mark = useMarkWatched();
  const watched = video.watchedAt !== null;
  const setWatched = (value: boolean) => mark.mutate({ id: video.id, watched: value });

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Title order={3} id={headingId} ref={headingRef} tabIndex={-1}>
          {video.title}
        </Title>
        <video
          controls
          preload="metadata"
          src={video.url}
          aria-labelledby={headingId}
          data-video-id={video.id}
          onEnded={() => {
            if (!watched && !mark.isPending) setWatched(true);
          }}
          style={{ width: '100%', aspectRatio: '16 / 9', background: '#000', borderRadius: 8 }}
        >
          {video.captionsUrl && (
            <track kind="captions" src={video.captionsUrl} srcLang="en" label="English" default />
          )}
          Your browser cannot play this video. <a href={video.url}>Download it</a> instead.
        </video>
        {video.description && <Text>{video.description}</Text>}
        {video.durationSeconds !== null && (
          <Text size="sm" c="dimmed">
            Length: {formatDuration(video.durationSeconds)}
          </Text>
        )}
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Group gap={6} role="status">
            {watched && (
              <IconCircleCheck size={18} aria-hidden color="var(--mantine-color-teal-7)" />
            )}
            <Text size="sm" fw={watched ? 600 : undefined}>
              {watched
                ? `Watched on ${formatWatchedDate(video.watchedAt!)}`
                : 'Not watched yet. It is marked watched when you reach the end.'}
            </Text>
          </Group>
          <Button
            variant={watched ? 'default' : 'filled'}
            loading={mark.isPending}
            onClick={() => setWatched(!watched)}
          >
            {watched ? 'Mark as not watched' : 'Mark as watched'}
          </Button>
        </Group>
        {mark.isError && (
          <Alert color="red" role="alert" title="Not saved">
            {failureMessage(mark.error)}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
