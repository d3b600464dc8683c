/** @jsxImportSource preact */
import type { CallerPageTexts } from '@locus/contract/caller';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useAnnouncement } from '../announcer';
import { CallerButton } from '../CallerButton';
import { Icon } from '../icons';
import type { CallerMedia, MediaState, PhotoItem } from './caller-media';
import { callerMediaLimits } from './media-limits';

/** The banner's red: 7.4:1 with white text (WCAG 1.4.3). */
const cameraOnStyle = {
  position: 'sticky',
  top: 0,
  zIndex: 10,
  display: 'flex',
  alignItems: 'center',
  gap: '10px',
  padding: '12px 16px',
  borderRadius: '8px',
  background: '#b60e13',
  color: '#fff',
  fontWeight: 700,
  fontSize: '18px',
} as const;

/**
 * Issue 19 on the caller's page: a dispatcher's request for video or photos with Allow / Not now,
 * the camera while it runs (a "Camera on" banner that stays in view, the preview, Switch camera,
 * Stop video), and the photos picked with each one's progress or error.
 */
export function MediaPanel({
  t,
  media,
  state,
}: {
  t: CallerPageTexts;
  media: CallerMedia;
  state: MediaState;
}) {
  const { request, video } = state;
  const cameraOn = video === 'live' || video === 'stills' || video === 'starting';
  useAnnouncement(
    'alert',
    request
      ? request.kind === 'video'
        ? t.mediaVideoRequestTitle
        : t.mediaPhotoRequestTitle
      : video === 'blocked'
        ? t.cameraBlocked
        : null,
  );
  useAnnouncement(
    'status',
    video === 'live'
      ? t.cameraOnBanner
      : video === 'stills'
        ? t.cameraStills
        : video === 'stopped'
          ? t.cameraStopped
          : state.declined
            ? t.mediaDeclined
            : null,
  );

  return (
    <>
      {cameraOn && (
        <div style={cameraOnStyle} data-camera-on="">
          <Icon name="alertTriangle" size={22} />
          <p>{t.cameraOnBanner}</p>
        </div>
      )}
      {request && <MediaRequest t={t} media={media} request={request} />}
      {state.declined && !request && (
        <div class="card">
          <p>{t.mediaDeclined}</p>
        </div>
      )}
      {cameraOn && <Camera t={t} media={media} state={state} />}
      {video === 'stopped' && (
        <div class="card">
          <p>{t.cameraStopped}</p>
        </div>
      )}
      {video === 'blocked' && (
        <div class="alert">
          <Icon name="alertTriangle" size={22} />
          <p>{t.cameraBlocked}</p>
        </div>
      )}
      {state.photosAllowed && (
        // A new request's photos start with the picker open again.
        <Photos key={state.photosAllowed} t={t} media={media} state={state} />
      )}
    </>
  );
}

function MediaRequest({
  t,
  media,
  request,
}: {
  t: CallerPageTexts;
  media: CallerMedia;
  request: NonNullable<MediaState['request']>;
}) {
  const video = request.kind === 'video';
  return (
    <section class="card stack" aria-labelledby="media-request-title" data-media-request="">
      <h2 id="media-request-title">
        {video ? t.mediaVideoRequestTitle : t.mediaPhotoRequestTitle}
      </h2>
      <p>
        {video
          ? t.mediaVideoRequestBody
          : t.mediaPhotoRequestBody(callerMediaLimits.maxPhotosPerCaller)}
      </p>
      {video && request.audio && <p>{t.mediaVideoAudioNote}</p>}
      <CallerButton icon="circleCheck" onClick={() => void media.allow()}>
        {t.mediaAllowButton}
      </CallerButton>
      <CallerButton variant="outline" onClick={media.decline}>
        {t.mediaDeclineButton}
      </CallerButton>
    </section>
  );
}

function Camera({
  t,
  media,
  state,
}: {
  t: CallerPageTexts;
  media: CallerMedia;
  state: MediaState;
}) {
  const preview = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const element = preview.current;
    if (!element) return;
    element.srcObject = state.stream;
    if (state.stream) void element.play().catch(() => undefined);
  }, [state.stream]);
  return (
    <section class="card stack" aria-label={t.cameraPreviewLabel}>
      {state.video === 'starting' && <p>{t.cameraStarting}</p>}
      {state.video === 'stills' && <p class="queued">{t.cameraStills}</p>}
      {/* The caller's own picture, silent (their voice would echo), shown as the camera sees. */}
      <video
        ref={preview}
        muted
        playsInline
        autoPlay
        aria-label={t.cameraPreviewLabel}
        style={{ width: '100%', borderRadius: '8px', background: '#101113' }}
      />
      <CallerButton variant="outline" icon="refresh" onClick={() => void media.switchCamera()}>
        {t.cameraSwitchButton}
      </CallerButton>
      <CallerButton variant="outline" icon="playerStop" onClick={media.stopVideo}>
        {t.cameraStopButton}
      </CallerButton>
    </section>
  );
}

function Photos({
  t,
  media,
  state,
}: {
  t: CallerPageTexts;
  media: CallerMedia;
  state: MediaState;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [done, setDone] = useState(false);
  const sent = state.photos.filter((photo) => photo.status !== 'failed').length;
  const full = sent >= callerMediaLimits.maxPhotosPerCaller;
  if (done) return null;
  return (
    <section class="card stack" aria-labelledby="photos-title">
      <h2 id="photos-title">{t.photoListLabel}</h2>
      <p class="quiet">{t.mediaPhotoRequestBody(callerMediaLimits.maxPhotosPerCaller)}</p>
      {/* The input is the page's, opened by the large button (the camera app, or the gallery). */}
      <input
        ref={input}
        id="photo-input"
        type="file"
        accept="image/*"
        capture="environment"
        multiple
        hidden
        onChange={(event) => {
          const target = event.currentTarget;
          const files = [...(target.files ?? [])];
          target.value = '';
          if (files.length > 0) void media.addPhotos(files);
        }}
      />
      {!full && (
        <CallerButton icon="circleCheck" onClick={() => input.current?.click()}>
          {t.photoPickButton}
        </CallerButton>
      )}
      {state.tooMany && (
        <p class="queued" role="alert">
          {t.photoTooMany(callerMediaLimits.maxPhotosPerCaller)}
        </p>
      )}
      {state.photos.length > 0 && (
        <ul
          class="photo-list"
          aria-label={t.photoListLabel}
          style={{ margin: 0, paddingLeft: '20px' }}
        >
          {state.photos.map((photo) => (
            <PhotoLine key={photo.key} t={t} photo={photo} />
          ))}
        </ul>
      )}
      {state.photos.length > 0 &&
        state.photos.every((photo) => photo.status === 'sent' || photo.status === 'failed') && (
          <CallerButton variant="outline" onClick={() => setDone(true)}>
            {t.photoDoneButton}
          </CallerButton>
        )}
    </section>
  );
}

function PhotoLine({ t, photo }: { t: CallerPageTexts; photo: PhotoItem }) {
  const reason =
    photo.error === 'not-image'
      ? t.photoNotImage
      : photo.error === 'network'
        ? t.photoNetworkError
        : photo.message;
  return (
    <li data-photo-status={photo.status}>
      <strong>{photo.name}</strong>:{' '}
      {photo.status === 'sent' ? (
        t.photoSent
      ) : photo.status === 'failed' ? (
        <span role="alert" style={{ color: '#b60e13', fontWeight: 700 }}>
          {reason ? `${t.photoNotSent}: ${reason}` : t.photoNotSent}
        </span>
      ) : (
        <>
          {t.photoSending(Math.round(photo.progress * 100))}{' '}
          <progress max={100} value={Math.round(photo.progress * 100)} aria-label={photo.name} />
        </>
      )}
    </li>
  );
}
