import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ErrorBody } from './errors';
import { callerLinkRoute, publicRoute } from './route-security';

/**
 * Issue 19: live video and photos from the caller's phone, with consent, kept as evidence.
 *
 * Nothing leaves the phone without the caller's tap. A dispatcher asks (`media-request` on the
 * dispatcher socket); the caller's page shows the request in their language with Allow / Not now
 * and answers (`media-answer`). Both are sequenced session events, so they are in the log, the
 * replay, the export and the evidence chain. A decline is shown and never retried automatically.
 *
 * Live video is WebRTC from the caller's browser to each dashboard watching the session (a mesh:
 * one peer connection per viewer, at most `mediaLimits.maxVideoViewers`). Signalling goes over
 * the existing sockets as unsequenced frames (`video-*`), relayed by the server between the
 * caller and one viewer, named by its `viewerId`. ICE servers (STUN, and TURN with short-lived
 * credentials by the TURN REST API scheme) come with the frames that start a connection.
 *
 * Photos are uploaded over HTTPS to the storage adapter and announced as `photo-added`; their
 * URLs are signed and expire. Access follows session access exactly: another team gets 404.
 */
export const mediaLimits = {
  /** Photos one caller may upload per session. */
  maxPhotosPerCaller: 10,
  /** The largest upload accepted, in bytes (the phone resizes to `maxPhotoEdgePx` first). */
  maxUploadBytes: 15 * 1024 * 1024,
  /** The longest edge a photo is resized to on the phone. */
  maxPhotoEdgePx: 2048,
  /** Dashboards that may watch one caller's video at once (one peer connection each). */
  maxVideoViewers: 3,
  /** How long a signed media URL works. */
  signedUrlSeconds: 15 * 60,
  /** How long TURN credentials minted for a session work. */
  turnCredentialSeconds: 60 * 60,
  /** Signalling frames one socket may send per second (SDP and ICE candidates), and burst. */
  signalsPerSecond: 20,
  signalBurst: 60,
  /** The largest SDP accepted, in characters. */
  maxSdpChars: 16_000,
  /** Below this many frames per second for `stillsAfterMs`, the caller falls back to stills. */
  minVideoFps: 3,
  stillsAfterMs: 8_000,
  /** One still every this often while video cannot be sustained. */
  stillEveryMs: 3_000,
  /** A still is a small JPEG of the camera (40–80 KB at 640×360): at most this large. */
  maxStillBytes: 1024 * 1024,
  /**
   * The stills one caller may send in one session, in bytes: over two hours of stills at their
   * usual size, so that a link cannot fill the media storage.
   */
  maxStillBytesPerCaller: 200 * 1024 * 1024,
  /** A dispatcher's snapshots of one caller's video in one session. */
  maxSnapshotsPerCaller: 100,
  /** A recording chunk (dispatcher side, MediaRecorder) at most this large. */
  maxRecordingChunkBytes: 8 * 1024 * 1024,
} as const;

/** Image types accepted, decided by the bytes (magic numbers), never by name or header. */
export const photoContentTypes = [
  'image/jpeg',
  'image/png',
  'image/heic',
  'image/heif',
  'image/webp',
] as const;
export const PhotoContentType = z.enum(photoContentTypes);

export const MediaKind = z.enum(['video', 'photo']);
export type MediaKind = z.infer<typeof MediaKind>;

/**
 * The caller's answer to a request. `camera-unavailable`: the caller allowed video, but the
 * phone did not open its camera (blocked in the browser's settings, or in use by another app);
 * nothing was sent, and the dispatcher may ask for photos instead.
 */
export const MediaAnswer = z.enum(['allowed', 'declined', 'camera-unavailable']);
export type MediaAnswer = z.infer<typeof MediaAnswer>;

/** One RTCIceServer, as the browser takes it. */
export const IceServer = z
  .object({
    urls: z.array(z.string().max(300)).min(1).max(8),
    username: z.string().max(300).optional(),
    credential: z.string().max(300).optional(),
  })
  .strict();
export const IceServers = z.array(IceServer).max(8);
export type IceServer = z.infer<typeof IceServer>;

/** An SDP offer or answer, as `RTCSessionDescriptionInit`. */
export const SessionDescription = z
  .object({
    type: z.enum(['offer', 'answer']),
    sdp: z.string().min(1).max(mediaLimits.maxSdpChars),
  })
  .strict();
/** A trickled ICE candidate, as `RTCIceCandidateInit`; null: gathering ended. */
export const IceCandidate = z
  .object({
    candidate: z.string().max(1_000),
    sdpMid: z.string().max(64).nullable().optional(),
    sdpMLineIndex: z.number().int().min(0).max(64).nullable().optional(),
    usernameFragment: z.string().max(256).nullable().optional(),
  })
  .strict()
  .nullable();

/** One signalling message: a description or a candidate (exactly one). */
export const VideoSignal = z
  .object({ description: SessionDescription.optional(), candidate: IceCandidate.optional() })
  .strict()
  .refine(
    (signal) => (signal.description === undefined) !== (signal.candidate === undefined),
    'Send either a description or a candidate.',
  );

const viewerId = z.string().min(1).max(64);
const sessionId = z.string().uuid();
const callerId = z.string().uuid();
const seq = z.number().int().positive();

/** A photo (or a still of a video that could not be sustained) as dashboards list it. */
export const SessionPhoto = z.object({
  id: z.string().uuid(),
  sessionId,
  callerId,
  /** `still`: a frame the caller's page sent while the video could not be sustained. */
  kind: z.enum(['photo', 'still', 'snapshot']),
  contentType: PhotoContentType,
  bytes: z.number().int().min(1),
  width: z.number().int().min(1).nullable(),
  height: z.number().int().min(1).nullable(),
  /** When the photo was taken (EXIF, else the phone's clock at the pick), ISO 8601. */
  takenAt: z.string().datetime(),
  /** When the server stored it, ISO 8601. */
  uploadedAt: z.string().datetime(),
  /** Where it was taken: the photo's EXIF position (also stored as a fix), else null. */
  position: z
    .object({
      latitude: z.number().min(-90).max(90),
      longitude: z.number().min(-180).max(180),
      uncertaintyRadiusInMeters: z.number().min(0).nullable(),
    })
    .nullable(),
  /** SHA-256 of the stored bytes, hex: what the session's evidence chain covers. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** A signed URL that expires (`mediaLimits.signedUrlSeconds`). */
  url: z.string().max(2_000),
  urlExpiresAt: z.string().datetime(),
});
export type SessionPhoto = z.infer<typeof SessionPhoto>;

/** A recording of a session's video (evidence), in chunks as they were uploaded. */
export const SessionRecording = z.object({
  id: z.string().uuid(),
  sessionId,
  callerId,
  contentType: z.string().max(100),
  startedAt: z.string().datetime(),
  endedAt: z.string().datetime().nullable(),
  bytes: z.number().int().min(0),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  url: z.string().max(2_000),
  urlExpiresAt: z.string().datetime(),
});
export type SessionRecording = z.infer<typeof SessionRecording>;

export const SessionMedia = z.object({
  photos: z.array(SessionPhoto),
  recordings: z.array(SessionRecording),
});
export type SessionMedia = z.infer<typeof SessionMedia>;

/** Sequenced session events of issue 19 (merged into `sessionEvents`, realtime.ts). */
export const mediaSessionEvents = {
  /** A dispatcher asked the caller for video or a photo; the caller's page shows it. */
  'media-requested': z.object({
    seq,
    sessionId,
    callerId,
    kind: MediaKind,
    /** Video only: the dispatcher asked for sound too (the caller allows or not). */
    audio: z.boolean(),
    requestId: z.string().uuid(),
  }),
  /** The caller's answer: shown to the dispatcher; a decline is never asked again by itself. */
  'media-answered': z.object({
    seq,
    sessionId,
    callerId,
    kind: MediaKind,
    requestId: z.string().uuid(),
    answer: MediaAnswer,
    /** Video: whether the caller allowed sound as well. */
    audio: z.boolean(),
  }),
  /** Live video started or stopped, and by whom. */
  'video-state': z.object({
    seq,
    sessionId,
    callerId,
    state: z.enum(['started', 'stopped', 'stills']),
    by: z.enum(['caller', 'dispatcher', 'session-ended', 'network']),
  }),
  /** A photo (or still, or snapshot) was stored for the session: dashboards add it to the gallery. */
  'photo-added': z.object({
    seq,
    sessionId,
    callerId,
    photo: SessionPhoto.omit({ url: true, urlExpiresAt: true }),
  }),
} as const;

/** dispatcher → server, issue 19 (merged into `dispatcherClientEvents`). */
export const mediaDispatcherClientEvents = {
  /** Ask the joined session's caller for video or a photo. */
  'media-request': z
    .object({ callerId, kind: MediaKind, audio: z.boolean().default(false) })
    .strict(),
  /** Watch the caller's running video: answered `video-viewer` (or an error when full). */
  'video-watch': z.object({ callerId }).strict(),
  /** A signal to the caller, for this socket's viewer connection. */
  'video-signal': z.object({ callerId, signal: VideoSignal }).strict(),
  /** Stop the caller's video (for every viewer). */
  'video-stop': z.object({ callerId }).strict(),
} as const;

/** server → dispatcher, issue 19 (merged into `dispatcherServerEvents`). */
export const mediaDispatcherServerEvents = {
  /** This socket may now connect to the caller's video as `viewerId`, with these ICE servers. */
  'video-viewer': z.object({ callerId, viewerId, iceServers: IceServers }),
  /** A signal from the caller for this socket's viewer connection. */
  'video-signal': z.object({ callerId, viewerId, signal: VideoSignal }),
  /** A still of the caller's video (when video cannot be sustained): a signed URL. */
  'video-still': z.object({ callerId, photoId: z.string().uuid(), url: z.string().max(2_000) }),
} as const;

/** caller → server, issue 19 (merged into `callerClientEvents`). */
export const mediaCallerClientEvents = {
  /** The caller's answer to a `media-request`. */
  'media-answer': z
    .object({
      requestId: z.string().uuid(),
      answer: MediaAnswer,
      audio: z.boolean().default(false),
    })
    .strict(),
  /**
   * The video runs (`started`), has fallen back to stills, or was stopped by the caller.
   * `videoId` names one camera opening (a new one per Allow, kept by the page's tab across a
   * reload). With `resent`, the page says again, after its socket (re)opened, what that video
   * is now: the server announces it only when it is news (a reloaded page's `stopped` is
   * announced `by: 'network'`), and answers `video-stop` to a video that was stopped meanwhile.
   */
  'video-state': z
    .object({
      state: z.enum(['started', 'stopped', 'stills']),
      videoId: z.string().uuid().optional(),
      resent: z.boolean().optional(),
    })
    .strict(),
  /** A signal to one viewer. */
  'video-signal': z.object({ viewerId, signal: VideoSignal }).strict(),
} as const;

/** server → caller, issue 19 (merged into `callerServerEvents`). */
export const mediaCallerServerEvents = {
  /** A dispatcher asks for video or a photo: show Allow / Not now. */
  'media-request': z.object({
    requestId: z.string().uuid(),
    kind: MediaKind,
    audio: z.boolean(),
    /** Video: ICE servers for the viewer connections to come. */
    iceServers: IceServers,
  }),
  /** A dashboard wants to watch: make an offer to `viewerId`. */
  'video-viewer': z.object({ viewerId, iceServers: IceServers }),
  /** A viewer left (its socket closed): close its peer connection. */
  'video-viewer-left': z.object({ viewerId }),
  /** A signal from one viewer. */
  'video-signal': z.object({ viewerId, signal: VideoSignal }),
  /** The dispatcher stopped the video, or tracking ended: turn the camera off. */
  'video-stop': z.object({}),
} as const;

// ---------------------------------------------------------------------------------------------
// REST: uploads, the gallery, signed media URLs, recordings (issue 19).

const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

/**
 * A request body of raw bytes (an image, a WebM chunk): the API hands the handler the bytes
 * as read, never parsed as JSON, whatever `Content-Type` says. Its type is decided by the
 * bytes themselves.
 */
export interface RawBytes {
  readonly bytes: Uint8Array;
}

/** Where an EXIF position (read on the phone before it resizes) travels: the query string. */
/** A number from the query string; an empty value is no value (`z.coerce` would make it 0). */
const queryNumber = (schema: z.ZodNumber) =>
  z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number().pipe(schema).optional(),
  );
const ExifPosition = {
  latitude: queryNumber(z.number().min(-90).max(90)),
  longitude: queryNumber(z.number().min(-180).max(180)),
  /** GPSHPositioningError, metres, when the photo had it. */
  accuracy: queryNumber(z.number().min(0).max(100_000)),
};
const bothOrNeither = (query: { latitude?: number; longitude?: number }) =>
  (query.latitude === undefined) === (query.longitude === undefined);

export const CallerMediaUploadQuery = z
  .object({
    token: z.string().max(64),
    /** `still`: a frame sent while video could not be sustained (not counted as a photo). */
    kind: z.enum(['photo', 'still']).default('photo'),
    /** When it was taken (EXIF DateTimeOriginal, else the phone's clock at the pick). */
    takenAt: z.string().datetime({ offset: true }),
    ...ExifPosition,
  })
  .refine(bothOrNeither, { message: 'Send latitude and longitude together.', path: ['latitude'] });
export type CallerMediaUploadQuery = z.infer<typeof CallerMediaUploadQuery>;

/** What the caller's page learns about its upload (no URL: the caller does not read it back). */
export const CallerMediaReceipt = z.object({
  id: z.string().uuid(),
  kind: z.enum(['photo', 'still']),
  contentType: PhotoContentType,
  bytes: z.number().int().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Photos this caller may still send in this session. */
  photosLeft: z.number().int().min(0),
});
export type CallerMediaReceipt = z.infer<typeof CallerMediaReceipt>;

export const SnapshotUploadQuery = z
  .object({ callerId, takenAt: z.string().datetime({ offset: true }).optional() })
  .strict();

const SessionParams = z.object({ sessionId });
const RecordingParams = z.object({ sessionId, recordingId: z.string().uuid() });
const ChunkParams = RecordingParams.extend({
  index: z.coerce.number().int().min(0).max(100_000),
});
const MediaFileParams = z.object({ id: z.string().uuid() });
/** A signed URL's query: its expiry (Unix seconds) and HMAC (base64url). */
export const SignedMediaQuery = z.object({
  expires: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 40),
  signature: z.string().max(200),
});

export const StartRecordingBody = z
  .object({
    callerId,
    /** What MediaRecorder produces: `video/webm` (with its codecs parameter, if any). */
    contentType: z
      .string()
      .max(100)
      .regex(/^video\/webm(;.*)?$/, 'Recordings are WebM (video/webm).'),
  })
  .strict();

export const RecordingChunkReceipt = z.object({
  index: z.number().int().min(0),
  bytes: z.number().int().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

const raw = c.type<RawBytes>();
const bytesBody =
  'The raw bytes as the request body (any `Content-Type`; the type is read from the bytes).';

/**
 * A file by its signed URL: bytes to a client (a recording is streamed by the server a chunk at
 * a time, hence the stream in the type).
 */
const signedFileResponses = {
  200: c.type<Uint8Array | ReadableStream<Uint8Array>>(),
  403: ErrorBody,
  404: ErrorBody,
  400: ErrorBody,
};

export const mediaContract = c.router(
  {
    callerUpload: {
      method: 'POST',
      path: '/api/v1/caller/media',
      ...callerLinkRoute,
      summary: "The caller's page uploads a photo (or a still of its video)",
      description:
        `Authenticated by the token in the caller's link (an active session only). ${bytesBody} ` +
        'JPEG, PNG, HEIC/HEIF or WebP, decided by their magic numbers, never by a name or a ' +
        `header; at most ${mediaLimits.maxUploadBytes} bytes (413), ` +
        `${mediaLimits.maxPhotosPerCaller} photos per caller and session (409 \`conflict\`); ` +
        `a still at most ${mediaLimits.maxStillBytes} bytes (413), one per ` +
        `${mediaLimits.stillEveryMs / 2} ms (429), and ${mediaLimits.maxStillBytesPerCaller} ` +
        'bytes of stills per caller and session (409 `conflict`); ' +
        'another type is 415 `validation-failed`. Nothing is stored when an upload is refused. ' +
        'JPEG metadata (EXIF, XMP, comments), PNG/WebP text and EXIF chunks and HEIC/HEIF EXIF are ' +
        'removed before the photo is stored. A position (`latitude`, `longitude`, `accuracy`: the photo’s EXIF ' +
        'GPS, read on the phone) is kept on the photo and becomes a fix of the session. The ' +
        'dashboards are told with the sequenced `photo-added` event. A link that no longer works ' +
        'is 403 `invalid-token`.',
      query: CallerMediaUploadQuery,
      body: raw,
      responses: {
        201: CallerMediaReceipt,
        ...errors,
        409: ErrorBody,
        413: ErrorBody,
        415: ErrorBody,
      },
    },
    snapshot: {
      method: 'POST',
      path: '/api/v1/sessions/:sessionId/media/snapshots',
      summary: "A dispatcher's snapshot of the caller's video",
      description:
        `A dispatcher who can see the session (else 404). ${bytesBody} Same types and size as ` +
        "the caller's photos; announced as `photo-added` with kind `snapshot`. At most " +
        `${mediaLimits.maxSnapshotsPerCaller} snapshots of one caller per session (409 \`conflict\`).`,
      pathParams: SessionParams,
      query: SnapshotUploadQuery,
      body: raw,
      responses: { 201: SessionPhoto, ...errors, 409: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    list: {
      method: 'GET',
      path: '/api/v1/sessions/:sessionId/media',
      summary: "A session's photos, stills, snapshots and recordings, with signed URLs",
      description:
        'A dispatcher who can see the session (its dispatcher, or an admin of its team); anyone ' +
        `else gets 404, as for the session itself. Each URL works for ${mediaLimits.signedUrlSeconds} s without sign-in.`,
      pathParams: SessionParams,
      responses: { 200: SessionMedia, ...errors },
    },
    photoFile: {
      method: 'GET',
      path: '/api/v1/media/photos/:id',
      ...publicRoute,
      summary: 'The bytes of a photo, by its signed URL',
      description:
        'No sign-in: the signature is the credential. An expired or wrong signature is 403 ' +
        '`forbidden`; a photo that does not exist (or was purged) is 404. Served with ' +
        '`Cache-Control: private` and `X-Content-Type-Options: nosniff`.',
      pathParams: MediaFileParams,
      query: SignedMediaQuery,
      responses: signedFileResponses,
    },
    recordingFile: {
      method: 'GET',
      path: '/api/v1/media/recordings/:id',
      ...publicRoute,
      summary: 'A finished recording (WebM), by its signed URL',
      description: 'As a photo: the signature is the credential (403 when wrong or expired).',
      pathParams: MediaFileParams,
      query: SignedMediaQuery,
      responses: signedFileResponses,
    },
    startRecording: {
      method: 'POST',
      path: '/api/v1/sessions/:sessionId/recordings',
      summary: "Start recording the caller's video as evidence (team setting `recordMedia`)",
      description:
        'A dispatcher who can see the active session (else 404), on a team whose `recordMedia` ' +
        'is on (else 403 `forbidden`). The dashboard records the video it receives ' +
        '(MediaRecorder, WebM) and uploads chunks in order.',
      pathParams: SessionParams,
      body: StartRecordingBody,
      responses: { 201: SessionRecording, ...errors, 409: ErrorBody },
    },
    recordingChunk: {
      method: 'PUT',
      path: '/api/v1/sessions/:sessionId/recordings/:recordingId/chunks/:index',
      summary: 'One chunk of a recording (the next index, from 0)',
      description:
        `${bytesBody} A WebM chunk (the first starts with the EBML header), at most ` +
        `${mediaLimits.maxRecordingChunkBytes} bytes (413). Sending the same index again ` +
        'replaces it; a gap is 409 `conflict`; a finished recording is 409.',
      pathParams: ChunkParams,
      body: raw,
      responses: {
        200: RecordingChunkReceipt,
        ...errors,
        409: ErrorBody,
        413: ErrorBody,
        415: ErrorBody,
      },
    },
    finishRecording: {
      method: 'POST',
      path: '/api/v1/sessions/:sessionId/recordings/:recordingId/finish',
      summary: 'Finish a recording: its length and SHA-256 over the chunks in order',
      description: 'Idempotent: a finished recording is answered as it is.',
      pathParams: RecordingParams,
      body: c.noBody(),
      responses: { 200: SessionRecording, ...errors, 409: ErrorBody },
    },
  },
  { strictStatusCodes: true },
);
