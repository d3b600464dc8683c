import { ApiError } from '../../app/api';
import { finishRecording, startRecording, uploadChunk } from './media-api';

/** A chunk every 5 s: at 600 kbps about 375 KB, far under the chunk limit (8 MiB). */
const CHUNK_MS = 5_000;

/**
 * The evidence recording of the caller's video (issue 19, team setting `recordMedia`), made on
 * the dispatcher's side from the stream as received: the caller's uplink, the scarce resource,
 * carries the video once and nothing more (docs/media.md). Chunks go up in order, one at a
 * time; a failed chunk is tried again before the next. Null when the team does not record (the
 * API answers 403) or the browser has no MediaRecorder.
 */
export class StreamRecorder {
  private recorder: MediaRecorder;
  private index = 0;
  private uploads: Promise<void> = Promise.resolve();
  private finished: Promise<void> | null = null;

  private constructor(
    private readonly sessionId: string,
    private readonly recordingId: string,
    stream: MediaStream,
    mimeType: string,
  ) {
    this.recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    this.recorder.ondataavailable = (event) => {
      if (event.data.size > 0) this.upload(event.data);
    };
    this.recorder.start(CHUNK_MS);
  }

  static async start(
    sessionId: string,
    callerId: string,
    stream: MediaStream,
  ): Promise<StreamRecorder | null> {
    if (typeof MediaRecorder === 'undefined') return null;
    const mimeType =
      ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp8', 'video/webm'].find((type) =>
        MediaRecorder.isTypeSupported(type),
      ) ?? '';
    if (!mimeType) return null;
    try {
      const recording = await startRecording(sessionId, callerId, mimeType);
      return new StreamRecorder(sessionId, recording.id, stream, mimeType);
    } catch (error) {
      // The team keeps no recordings: nothing to do, and nothing to show.
      if (error instanceof ApiError && error.status === 403) return null;
      throw error;
    }
  }

  /** Stops recording, sends what is left and closes the recording (its length and hash). */
  stop(): Promise<void> {
    if (this.finished) return this.finished;
    this.finished = new Promise<void>((resolve) => {
      if (this.recorder.state === 'inactive') return resolve();
      this.recorder.addEventListener('stop', () => resolve(), { once: true });
      this.recorder.stop();
    })
      .then(() => this.uploads)
      .then(() => finishRecording(this.sessionId, this.recordingId));
    return this.finished;
  }

  private upload(chunk: Blob): void {
    const index = this.index++;
    this.uploads = this.uploads.then(async () => {
      for (let attempt = 0; ; attempt += 1) {
        try {
          return await uploadChunk(this.sessionId, this.recordingId, index, chunk);
        } catch (error) {
          if (attempt >= 2) {
            console.warn(`Recording chunk ${index} was not stored`, error);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 1_000 * (attempt + 1)));
        }
      }
    });
  }
}
