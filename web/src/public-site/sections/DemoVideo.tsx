import { AspectRatio, UnstyledButton } from '@mantine/core';
import { IconPlayerPlayFilled } from '@tabler/icons-react';
import { useState } from 'react';
import classes from '../public-site.module.css';

const mediaFile = /\.(mp4|webm|ogg|mov)(\?|#|$)/i;
const title = 'Locus demo video';

/** Asks an embedded player to start at once, since the visitor has already pressed play. */
function withAutoplay(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.searchParams.set('autoplay', '1');
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * The public demo video. Nothing is fetched from the video host until the visitor presses
 * play: the section shows a light poster, then a <video> for a file or an iframe for a player
 * page (YouTube, Vimeo, …).
 */
export function DemoVideo({ url }: { url: string }) {
  const [playing, setPlaying] = useState(false);
  return (
    <figure className={classes.video} aria-label={title}>
      <AspectRatio ratio={16 / 9}>
        {!playing ? (
          <UnstyledButton className={classes.videoPoster} onClick={() => setPlaying(true)}>
            <span className={classes.videoPlay} aria-hidden="true">
              <IconPlayerPlayFilled size={30} />
            </span>
            <span className={classes.videoCaption}>Play the demo video</span>
            <span className={classes.videoNote}>
              A walkthrough of a live search, start to finish
            </span>
          </UnstyledButton>
        ) : mediaFile.test(url) ? (
          <video src={url} controls autoPlay title={title} />
        ) : (
          <iframe
            src={withAutoplay(url)}
            title={title}
            loading="lazy"
            allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
            allowFullScreen
            referrerPolicy="strict-origin-when-cross-origin"
          />
        )}
      </AspectRatio>
    </figure>
  );
}
