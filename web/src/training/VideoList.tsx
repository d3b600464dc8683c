import type { TrainingVideo } from '@locus/contract';
import { Badge, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconCircleCheck, IconPlayerPlay } from '@tabler/icons-react';
import { formatDuration, formatWatchedDate } from './format';
import './training.css';

/**
 * The deployment's videos, in its order: each a card whose title is the button that opens it in
 * the player (the card's description, length and watched state describe the button).
 */
export function VideoList({
  videos,
  selectedId,
  onSelect,
  labelledBy,
}: {
  videos: TrainingVideo[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  labelledBy: string;
}) {
  return (
    <Stack
      component="ul"
      gap="sm"
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
      aria-labelledby={labelledBy}
    >
      {videos.map((video) => {
        const selected = video.id === selectedId;
        const detailsId = `training-video-${video.id}-details`;
        return (
          <li key={video.id}>
            <Paper
              withBorder
              radius="md"
              p="md"
              className="locus-training-item"
              style={
                selected
                  ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 }
                  : undefined
              }
            >
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <IconPlayerPlay size={20} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
                <Stack gap={6} style={{ minWidth: 0 }}>
                  <UnstyledButton
                    className="locus-training-item-button"
                    onClick={() => onSelect(video.id)}
                    aria-current={selected ? 'true' : undefined}
                    aria-describedby={detailsId}
                    fw={600}
                    ta="left"
                  >
                    {video.title}
                  </UnstyledButton>
                  <Stack gap={6} id={detailsId}>
                    {video.description && (
                      <Text size="sm" c="dimmed">
                        {video.description}
                      </Text>
                    )}
                    <Group gap="xs">
                      {video.durationSeconds !== null && (
                        <Text size="xs" c="dimmed">
                          {formatDuration(video.durationSeconds)}
                          {video.watchedAt ? '.' : ''}
                        </Text>
                      )}
                      {video.watchedAt && (
                        <Badge
                          color="teal.9"
                          variant="filled"
                          tt="none"
                          leftSection={<IconCircleCheck size={14} aria-hidden />}
                        >
                          Watched {formatWatchedDate(video.watchedAt)}
                        </Badge>
                      )}
                    </Group>
                  </Stack>
                </Stack>
              </Group>
            </Paper>
          </li>
        );
      })}
    </Stack>
  );
}
