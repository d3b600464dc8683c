import { readExif, type PhotoExif } from './exif';
import { callerMediaLimits } from './media-limits';

/**
 * Where the caller's page uploads a picture (`mediaContract.callerUpload`, copied: the page loads
 * no zod): raw bytes, its link token and what the page read from the photo in the query string.
 */
export const callerMediaUploadPath = '/api/v1/caller/media';

export type PictureKind = 'photo' | 'still';

export interface PreparedPicture {
  blob: Blob;
  width: number;
  height: number;
  takenAt: Date;
  exif: PhotoExif;
}

/** JPEG quality of a resized photo: a 2,048 px photo comes to about 300–600 KB. */
const PHOTO_QUALITY = 0.85;

/**
 * A picked photo as it is sent: its EXIF position and time read from the original bytes, then
 * redrawn (turned upright) on a canvas no larger than `maxPhotoEdgePx` and encoded as JPEG,
 * which drops every EXIF tag (the position goes separately, as the caller's own fix). Rejects
 * with 'not-image' when the browser cannot decode it.
 */
export async function preparePhoto(file: File): Promise<PreparedPicture> {
  const head = await file.slice(0, 128 * 1024).arrayBuffer();
  const exif = readExif(head);
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    throw new Error('not-image');
  }
  const scale = Math.min(
    1,
    callerMediaLimits.maxPhotoEdgePx / Math.max(bitmap.width, bitmap.height),
  );
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const blob = await toJpeg(canvas, PHOTO_QUALITY);
  // A camera's clock first; a photo without one was taken about when it was picked.
  const takenAt = exif.takenAt ?? new Date(file.lastModified || Date.now());
  return { blob, width, height, takenAt, exif };
}

export function toJpeg(canvas: HTMLCanvasElement, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('not-image'))),
      'image/jpeg',
      quality,
    ),
  );
}

export type UploadResult =
  | { ok: true }
  | { ok: false; reason: 'network' }
  | { ok: false; reason: 'refused'; status: number; message?: string };

/**
 * Sends one picture, reporting progress (0–1). The server decides the type by the bytes and
 * answers refusals as `{ error, message }`, whose message is shown as it is.
 */
export function uploadPicture(
  token: string,
  kind: PictureKind,
  picture: PreparedPicture,
  onProgress: (fraction: number) => void,
): Promise<UploadResult> {
  const query = new URLSearchParams({ token, kind, takenAt: picture.takenAt.toISOString() });
  const { latitude, longitude, uncertaintyRadiusInMeters } = picture.exif;
  if (latitude !== null && longitude !== null) {
    query.set('latitude', String(latitude));
    query.set('longitude', String(longitude));
    if (uncertaintyRadiusInMeters !== null)
      query.set('accuracy', String(uncertaintyRadiusInMeters));
  }
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${callerMediaUploadPath}?${query.toString()}`);
    request.setRequestHeader('content-type', picture.blob.type || 'image/jpeg');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onerror = request.ontimeout = () => resolve({ ok: false, reason: 'network' });
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) return resolve({ ok: true });
      resolve({
        ok: false,
        reason: 'refused',
        status: request.status,
        message: messageOf(request.responseText),
      });
    };
    request.send(picture.blob);
  });
}

function messageOf(text: string): string | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string')
      return body.message;
  } catch {
    // Not JSON (a proxy's page): the generic words say it.
  }
  return undefined;
}
