import { TrainingVideoId } from '@locus/contract';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** Where Locus serves the files of `TRAINING_MEDIA_DIR`. */
export const TRAINING_MEDIA_PREFIX = '/training-media/';

/** `/training-media/<file>`: a file name (or sub-path) without `..`, hidden names or odd characters. */
const selfHostedPath =
  /^\/training-media\/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '';
  } catch {
    return false;
  }
}

const MediaUrl = z
  .string()
  .trim()
  .max(2000)
  .refine(
    (value) => selfHostedPath.test(value) || isWebUrl(value),
    'must be /training-media/<file> (served from TRAINING_MEDIA_DIR) or an absolute http(s) URL',
  );

/** One entry of the deployment's training videos file. */
export const TrainingVideoEntry = z
  .object({
    id: TrainingVideoId,
    title: z.string().trim().min(1).max(200),
    description: z.string().trim().max(2000).default(''),
    /** The video file itself (MP4 or WebM), not a page that embeds it. */
    url: MediaUrl,
    /** WebVTT captions. */
    captionsUrl: MediaUrl.optional(),
    durationSeconds: z
      .number()
      .int()
      .positive()
      .max(24 * 3600)
      .optional(),
  })
  .strict();
export type TrainingVideoEntry = z.infer<typeof TrainingVideoEntry>;

/** The file: a JSON array of entries, each id once, in the order the page lists them. */
export const TrainingVideosFile = z
  .array(TrainingVideoEntry)
  .max(200)
  .superRefine((entries, context) => {
    const seen = new Set<string>();
    entries.forEach((entry, index) => {
      if (seen.has(entry.id))
        context.addIssue({ code: 'custom', path: [index, 'id'], message: 'is listed twice' });
      seen.add(entry.id);
    });
  });

/** The deployment's training videos, read once at boot. */
export interface TrainingCatalogue {
  videos: TrainingVideoEntry[];
  /** The directory served at `/training-media/`. */
  mediaDir: string;
  /** Origins of the videos and captions hosted elsewhere (the Content-Security-Policy allows them). */
  mediaOrigins: string[];
}

/**
 * Reads and checks the training videos file; every problem is one line naming the entry and
 * field, and a self-hosted file missing from `mediaDir` is a problem too, so a deployment with a
 * broken list does not start.
 */
export function trainingCatalogueProblems(
  file: string,
  mediaDir: string,
): { catalogue: TrainingCatalogue; problems: [] } | { catalogue: null; problems: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    return { catalogue: null, problems: [`cannot read ${file} (${reason})`] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      catalogue: null,
      problems: [`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`],
    };
  }
  const parsed = TrainingVideosFile.safeParse(json);
  if (!parsed.success) {
    return {
      catalogue: null,
      problems: parsed.error.issues.map(
        (issue) =>
          `${file}: ${issue.path.length ? `[${issue.path.join('.')}] ` : ''}${issue.message}`,
      ),
    };
  }
  const problems: string[] = [];
  const origins = new Set<string>();
  parsed.data.forEach((entry, index) => {
    for (const field of ['url', 'captionsUrl'] as const) {
      const url = entry[field];
      if (url === undefined) continue;
      if (!url.startsWith(TRAINING_MEDIA_PREFIX)) {
        origins.add(new URL(url).origin);
        continue;
      }
      const path = join(mediaDir, url.slice(TRAINING_MEDIA_PREFIX.length));
      if (!isFile(path))
        problems.push(`${file}: [${index}.${field}] ${url} is not a file in ${mediaDir}`);
    }
  });
  if (problems.length > 0) return { catalogue: null, problems };
  return {
    catalogue: { videos: parsed.data, mediaDir, mediaOrigins: [...origins] },
    problems: [],
  };
}

/** The catalogue, or an Error listing what is wrong with the file. */
export function readTrainingCatalogue(config: {
  TRAINING_VIDEOS_FILE: string;
  TRAINING_MEDIA_DIR: string;
}): TrainingCatalogue {
  const result = trainingCatalogueProblems(config.TRAINING_VIDEOS_FILE, config.TRAINING_MEDIA_DIR);
  if (result.catalogue === null)
    throw new Error(
      `Invalid training videos (TRAINING_VIDEOS_FILE):\n  ${result.problems.join('\n  ')}`,
    );
  return result.catalogue;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
