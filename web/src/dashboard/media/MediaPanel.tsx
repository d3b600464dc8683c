import {
  Box,
  Button,
  Checkbox,
  Group,
  Image,
  Modal,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconCamera, IconPhoto, IconPlayerStop, IconVideo } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState } from 'react';
import { formatClock, formatCoordinate } from '../format';
import type { CallerMediaView, GalleryPhoto } from './useCallerMedia';

/**
 * Issue 19 on the dashboard: ask the tracked caller for video or photos (never while their page
 * is closed: the request would wait unseen), the caller's video as it arrives with its bitrate
 * and frame rate, Snapshot and Stop video, the stills sent when video could not be sustained,
 * and the gallery of the session's pictures with their time and position.
 */
export function MediaPanel({
  media,
  connected,
}: {
  media: CallerMediaView;
  /** The tracked caller's page is open (its socket is connected). */
  connected: boolean;
}) {
  const headingId = useId();
  const reasonId = useId();
  const [audio, setAudio] = useState(false);
  const { videoState, pending } = media;
  const running = videoState === 'started' || videoState === 'stills';
  // A request waiting for its answer does not block another: a new one replaces it.
  const disabledReason = connected
    ? null
    : "The caller's page is not open: video and photos can be asked for once it is.";
  const shown = media.photos.filter((photo) => photo.kind !== 'still');

  return (
    <Paper component="section" aria-labelledby={headingId} withBorder p="sm">
      <Title order={2} size="h5" id={headingId} mb={6}>
        Video and photos
      </Title>
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap">
          <Button
            size="xs"
            leftSection={<IconVideo size={16} aria-hidden />}
            disabled={disabledReason !== null || running}
            aria-describedby={disabledReason ? reasonId : undefined}
            onClick={() => media.request('video', audio)}
          >
            Request video
          </Button>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPhoto size={16} aria-hidden />}
            disabled={disabledReason !== null}
            aria-describedby={disabledReason ? reasonId : undefined}
            onClick={() => media.request('photo')}
          >
            Request photo
          </Button>
          <Checkbox
            size="xs"
            label="With sound"
            checked={audio}
            disabled={disabledReason !== null || running}
            onChange={(event) => setAudio(event.currentTarget.checked)}
          />
        </Group>
        {disabledReason && (
          <Text id={reasonId} size="xs" c="dimmed">
            {disabledReason}
          </Text>
        )}
        {pending && (
          <Text size="xs" role="status">
            Waiting for the caller to answer the {pending.kind === 'video' ? 'video' : 'photo'}{' '}
            request.
          </Text>
        )}
        {media.problem && (
          <Text size="xs" c="red.8" role="alert">
            {media.problem}
          </Text>
        )}
        {running && <LiveVideo media={media} />}
        {shown.length > 0 && <Gallery photos={shown} />}
      </Stack>
    </Paper>
  );
}

function LiveVideo({ media }: { media: CallerMediaView }) {
  const video = useRef<HTMLVideoElement>(null);
  const [snapshot, setSnapshot] = useState<'idle' | 'saving' | 'saved' | string>('idle');
  useEffect(() => {
    const element = video.current;
    if (!element) return;
    element.srcObject = media.stream;
    if (media.stream) void element.play().catch(() => undefined);
  }, [media.stream]);
  const { stats, still, videoState } = media;
  return (
    <Stack gap={6}>
      {videoState === 'stills' && (
        <Text size="xs" c="orange.9">
          The caller's connection cannot carry video: a still picture arrives every few seconds.
        </Text>
      )}
      {videoState === 'stills' && still ? (
        <Image
          src={still.url}
          alt={`Still from the caller's camera, ${formatClock(still.at)}`}
          radius="sm"
        />
      ) : (
        // Muted: the dashboard plays no sound by itself (autoplay rules); the controls unmute.
        <Box
          component="video"
          ref={video}
          muted
          playsInline
          autoPlay
          controls
          aria-label="The caller's live video"
          data-caller-video=""
          style={{ width: '100%', background: '#101113', borderRadius: 4 }}
        />
      )}
      <Text size="xs" c="dimmed" aria-live="off" data-video-stats="">
        {media.stream === null
          ? 'Connecting to the video…'
          : stats
            ? `${stats.kbps ?? '–'} kbps · ${stats.fps ?? '–'} fps${stats.width && stats.height ? ` · ${stats.width}×${stats.height}` : ''}`
            : 'Measuring…'}
      </Text>
      {media.recording && (
        <Text size="xs" fw={600} c="red.8">
          Recording (team setting): the video is kept with the session.
        </Text>
      )}
      <Group gap="xs">
        <Button
          size="xs"
          variant="light"
          leftSection={<IconCamera size={16} aria-hidden />}
          disabled={media.stream === null || snapshot === 'saving'}
          onClick={() => {
            const element = video.current;
            if (!element) return;
            setSnapshot('saving');
            media.snapshot(element).then(
              () => setSnapshot('saved'),
              (error: unknown) =>
                setSnapshot(error instanceof Error ? error.message : String(error)),
            );
          }}
        >
          Snapshot
        </Button>
        <Button
          size="xs"
          color="red"
          variant="light"
          leftSection={<IconPlayerStop size={16} aria-hidden />}
          onClick={media.stopVideo}
        >
          Stop video
        </Button>
      </Group>
      {snapshot !== 'idle' && (
        <Text
          size="xs"
          role="status"
          c={snapshot === 'saved' || snapshot === 'saving' ? undefined : 'red.8'}
        >
          {snapshot === 'saving'
            ? 'Saving the snapshot…'
            : snapshot === 'saved'
              ? 'Snapshot saved with the session.'
              : `Snapshot not saved: ${snapshot}`}
        </Text>
      )}
    </Stack>
  );
}

function describe(photo: GalleryPhoto): string {
  const when = formatClock(Date.parse(photo.takenAt));
  const where = photo.position
    ? `at ${formatCoordinate(photo.position.latitude)}, ${formatCoordinate(photo.position.longitude)}`
    : 'no position';
  return `${photo.kind === 'snapshot' ? 'Snapshot' : 'Photo'} taken ${when}, ${where}`;
}

function Gallery({ photos }: { photos: GalleryPhoto[] }) {
  const [open, setOpen] = useState<GalleryPhoto | null>(null);
  return (
    <>
      <Box
        component="ul"
        aria-label="Photos"
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
        data-gallery=""
      >
        {photos.map((photo) => (
          <Box component="li" key={photo.id} py={4} data-photo-id={photo.id}>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              {photo.url ? (
                <Box
                  component="button"
                  type="button"
                  onClick={() => setOpen(photo)}
                  aria-label={`Open: ${describe(photo)}`}
                  p={0}
                  style={{ border: 0, background: 'none', cursor: 'zoom-in', flex: 'none' }}
                >
                  <Image src={photo.url} alt="" w={64} h={64} fit="cover" radius="sm" />
                </Box>
              ) : null}
              <Stack gap={0}>
                <Text size="xs" fw={600}>
                  {photo.kind === 'snapshot' ? 'Snapshot' : 'Photo'} ·{' '}
                  {formatClock(Date.parse(photo.takenAt))}
                </Text>
                <Text size="xs" c="dimmed" data-photo-position="">
                  {photo.position
                    ? `${formatCoordinate(photo.position.latitude)}, ${formatCoordinate(photo.position.longitude)}`
                    : 'No position in the photo'}
                </Text>
              </Stack>
            </Group>
          </Box>
        ))}
      </Box>
      <Modal
        opened={open !== null}
        onClose={() => setOpen(null)}
        size="xl"
        title={open ? describe(open) : ''}
      >
        {open?.url && <Image src={open.url} alt={describe(open)} />}
      </Modal>
    </>
  );
}
