import { mediaContract, mediaLimits, type RawBytes } from '@locus/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import { ApiError } from '../../http/errors';
import { requireUser } from '../auth/guard';
import { signedMediaFile, type MediaFile } from './photos-gallery';
import {
  requireUploadingCaller,
  tooLarge,
  uploadCallerMedia,
  uploadSnapshot,
  type MediaDeps,
} from './photos-service';
import { finishRecording, startRecording, uploadChunk } from './recordings-service';
import { sessionMedia } from './photos-gallery';

/**
 * A raw request body. The bytes sit in a private field, out of reach of the input check that
 * walks every value of a body for control characters (a 15 MB image would be 15 million
 * entries), and of anything that would log or serialise the body.
 */
class UploadedBytes implements RawBytes {
  readonly #bytes: Buffer;
  constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }
  get bytes(): Buffer {
    return this.#bytes;
  }
}

function bytesOf(body: unknown): Buffer {
  if (body instanceof UploadedBytes) return body.bytes;
  throw new ApiError(400, 'validation-failed', 'Send the file as the request body.');
}

/**
 * In this scope every body, whatever its `Content-Type`, is read as bytes (the type is decided
 * by the bytes), up to `limit`: a larger one is refused as soon as its length is known (the
 * header, or the bytes read so far) with the documented 413, before anything is stored.
 */
function acceptRawBodies(scope: FastifyInstance, limit: number): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (request, payload, done) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return done(tooLarge(limit), undefined);
    const parts: Buffer[] = [];
    let size = 0;
    let finished = false;
    const finish = (error: Error | null, body?: UploadedBytes) => {
      if (finished) return;
      finished = true;
      done(error, body);
    };
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        finish(tooLarge(limit));
        payload.removeAllListeners('data');
        payload.resume();
        return;
      }
      parts.push(chunk);
    });
    payload.on('end', () => finish(null, new UploadedBytes(Buffer.concat(parts, size))));
    payload.on('error', (error) => finish(error));
  });
}

function sendFile(reply: FastifyReply, file: MediaFile): { status: 200; body: MediaFile['body'] } {
  // A caller's photo: only the browser that asked keeps it, and it is never sniffed as HTML.
  void reply
    .type(file.contentType)
    .header('content-length', file.length)
    .header('cache-control', 'private')
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', 'inline');
  return { status: 200, body: file.body };
}

/** Issue 19: photos, snapshots, recordings and signed media URLs; thin over the services. */
export async function mediaRoutes(app: FastifyInstance, deps: MediaDeps): Promise<void> {
  const principal = (request: FastifyRequest) => requireUser(request);
  await app.register(async (scope) => {
    acceptRawBodies(scope, mediaLimits.maxUploadBytes);
    // Who may send is checked before the body is read: a stranger's 15 MB is never buffered.
    scope.addHook('onRequest', async (request) => {
      if (request.routeOptions.url === mediaContract.callerUpload.path)
        await requireUploadingCaller(deps, (request.query as { token?: unknown }).token);
      else await principal(request);
    });
    registerContract(
      scope,
      { callerUpload: mediaContract.callerUpload, snapshot: mediaContract.snapshot },
      {
        callerUpload: async ({ query, body }) => ({
          status: 201,
          body: await uploadCallerMedia(deps, query, bytesOf(body)),
        }),
        snapshot: async ({ params, query, body }, { request }) => ({
          status: 201,
          body: await uploadSnapshot(
            deps,
            await principal(request),
            params.sessionId,
            query,
            bytesOf(body),
          ),
        }),
      },
    );
  });
  await app.register(async (scope) => {
    acceptRawBodies(scope, mediaLimits.maxRecordingChunkBytes);
    scope.addHook('onRequest', async (request) => {
      await principal(request);
    });
    registerContract(
      scope,
      { recordingChunk: mediaContract.recordingChunk },
      {
        recordingChunk: async ({ params, body }, { request }) => ({
          status: 200,
          body: await uploadChunk(deps, await principal(request), params, bytesOf(body)),
        }),
      },
    );
  });
  registerContract(
    app,
    {
      list: mediaContract.list,
      photoFile: mediaContract.photoFile,
      recordingFile: mediaContract.recordingFile,
      startRecording: mediaContract.startRecording,
      finishRecording: mediaContract.finishRecording,
    },
    {
      list: async ({ params }, { request }) => ({
        status: 200,
        body: await sessionMedia(deps, await principal(request), params.sessionId),
      }),
      photoFile: async ({ params, query }, { reply }) =>
        sendFile(reply, await signedMediaFile(deps, 'photos', params.id, query)),
      recordingFile: async ({ params, query }, { reply }) =>
        sendFile(reply, await signedMediaFile(deps, 'recordings', params.id, query)),
      startRecording: async ({ params, body }, { request }) => ({
        status: 201,
        body: await startRecording(deps, await principal(request), params.sessionId, body),
      }),
      finishRecording: async ({ params }, { request }) => ({
        status: 200,
        body: await finishRecording(
          deps,
          await principal(request),
          params.sessionId,
          params.recordingId,
        ),
      }),
    },
  );
}
