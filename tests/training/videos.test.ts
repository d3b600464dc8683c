import { parseConfig } from '@locus/api';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { startApi, type TestApi } from '../support/api';

// Issue 14, training videos: the deployment's list (TRAINING_VIDEOS_FILE, checked at boot), each
// user's watched state, and the self-hosted files under /training-media/ with Range support.

interface Video {
  id: string;
  title: string;
  description: string;
  url: string;
  captionsUrl: string | null;
  durationSeconds: number | null;
  watchedAt: string | null;
}

const base = '/api/v1/training/videos';
const defaultIds = [
  'locating-a-caller',
  'tracking-several-numbers',
  'chat-and-case-transfer',
  'admin-users-teams-metrics',
];

let stack: AuthStack;
let dispatcher: string;
let dispatcher2: string;
const scratch = mkdtempSync(join(tmpdir(), 'locus-training-'));

const list = (token: string) => call<{ videos: Video[] }>(stack.api, 'GET', base, { token });
const mark = (token: string, id: string) =>
  call<Video>(stack.api, 'POST', `${base}/${id}/watched`, { token });
const unmark = (token: string, id: string) =>
  call<Video>(stack.api, 'DELETE', `${base}/${id}/watched`, { token });
const watched = async (token: string) =>
  (await list(token)).body.videos.filter((video) => video.watchedAt !== null).map((v) => v.id);

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
  [dispatcher, dispatcher2] = await Promise.all([
    signIn(stack.api, 'dispatcher@demo-county.test'),
    signIn(stack.api, 'dispatcher2@demo-county.test'),
  ]);
});

afterAll(async () => {
  await stack?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the training videos API', () => {
  it('refuses anyone not signed in', async () => {
    expect((await call(stack.api, 'GET', base)).status).toBe(401);
    for (const method of ['POST', 'DELETE']) {
      const answer = await call<{ error: string }>(
        stack.api,
        method,
        `${base}/locating-a-caller/watched`,
      );
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('unauthorized');
    }
  });

  it("lists the shipped videos in the file's order, none watched yet", async () => {
    const answer = await list(dispatcher);
    expect(answer.status).toBe(200);
    expect(answer.body.videos.map((video) => video.id)).toEqual(defaultIds);
    const [first] = answer.body.videos;
    expect(first).toEqual({
      id: 'locating-a-caller',
      title: 'Locating a caller',
      description: expect.stringContaining('automatic lookup') as string,
      url: '/training-media/locating-a-caller.mp4',
      captionsUrl: '/training-media/locating-a-caller.vtt',
      durationSeconds: 13,
      watchedAt: null,
    });
    expect(answer.headers.get('cache-control')).toContain('no-store');
  });

  it('marks a video watched, idempotently, keeping the first time', async () => {
    const before = Date.now();
    const first = await mark(dispatcher, 'tracking-several-numbers');
    expect(first.status).toBe(200);
    expect(first.body.id).toBe('tracking-several-numbers');
    const at = Date.parse(first.body.watchedAt!);
    expect(at).toBeGreaterThanOrEqual(before - 1_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1_000);

    const again = await mark(dispatcher, 'tracking-several-numbers');
    expect(again.status).toBe(200);
    expect(again.body.watchedAt).toBe(first.body.watchedAt);

    const listed = (await list(dispatcher)).body.videos;
    expect(listed.find((video) => video.id === 'tracking-several-numbers')?.watchedAt).toBe(
      first.body.watchedAt,
    );
    expect(await watched(dispatcher)).toEqual(['tracking-several-numbers']);
  });

  it('marks a video not watched, idempotently', async () => {
    await mark(dispatcher, 'chat-and-case-transfer');
    const undone = await unmark(dispatcher, 'chat-and-case-transfer');
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ id: 'chat-and-case-transfer', watchedAt: null });
    const again = await unmark(dispatcher, 'chat-and-case-transfer');
    expect(again.status).toBe(200);
    expect(again.body.watchedAt).toBeNull();
    expect(await watched(dispatcher)).not.toContain('chat-and-case-transfer');
  });

  it('answers 404 for a video the deployment does not list, 400 for an id that cannot be one', async () => {
    for (const answer of [
      await mark(dispatcher, 'not-a-video'),
      await unmark(dispatcher, 'not-a-video'),
    ]) {
      expect(answer.status).toBe(404);
      expect((answer.body as unknown as { error: string }).error).toBe('not-found');
    }
    const bad = await mark(dispatcher, 'Not_A_Video');
    expect(bad.status).toBe(400);
    expect((bad.body as unknown as { error: string }).error).toBe('validation-failed');
    expect(
      await stack.database.db.selectFrom('training_video_views').select('video_id').execute(),
    ).not.toContainEqual({ video_id: 'not-a-video' });
  });

  it("keeps each user's watched state to themselves", async () => {
    await mark(dispatcher, 'locating-a-caller');
    await mark(dispatcher2, 'admin-users-teams-metrics');
    expect(await watched(dispatcher)).toEqual(['locating-a-caller', 'tracking-several-numbers']);
    expect(await watched(dispatcher2)).toEqual(['admin-users-teams-metrics']);
    // One user's undo leaves the other's state alone.
    await mark(dispatcher2, 'locating-a-caller');
    await unmark(dispatcher, 'locating-a-caller');
    expect(await watched(dispatcher)).toEqual(['tracking-several-numbers']);
    expect(await watched(dispatcher2)).toEqual(['locating-a-caller', 'admin-users-teams-metrics']);
  });
});

describe('the self-hosted training files', () => {
  const media = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${stack.api.url}/training-media/${path}`, { headers });

  it('serves a video to anyone, with byte ranges so a player can seek', async () => {
    const whole = await media('locating-a-caller.mp4');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const size = (await whole.arrayBuffer()).byteLength;
    expect(size).toBeGreaterThan(1_000);
    expect(size).toBeLessThan(200_000);

    const part = await media('locating-a-caller.mp4', { range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${size}`);
    expect((await part.arrayBuffer()).byteLength).toBe(100);

    const tail = await media('locating-a-caller.mp4', { range: `bytes=${size - 10}-` });
    expect(tail.status).toBe(206);
    expect((await tail.arrayBuffer()).byteLength).toBe(10);

    const beyond = await media('locating-a-caller.mp4', { range: `bytes=${size + 10}-` });
    expect(beyond.status).toBe(416);
  });

  it('serves the captions as WebVTT', async () => {
    const captions = await media('locating-a-caller.vtt');
    expect(captions.status).toBe(200);
    expect(captions.headers.get('content-type')).toMatch(/^text\/vtt/);
    expect(await captions.text()).toMatch(/^WEBVTT\n/);
  });

  it('serves nothing outside the media directory', async () => {
    expect((await media('missing.mp4')).status).toBe(404);
    // A way out of the directory is refused (403 from the file server, or 404), never served.
    for (const path of ['..%2F..%2Fpackage.json', '%2e%2e/videos.json', '.hidden']) {
      const answer = await media(path);
      expect([403, 404], path).toContain(answer.status);
      expect(await answer.text(), path).not.toMatch(/"name"|locating-a-caller/);
    }
  });
});

describe("a deployment's own list", () => {
  let own: TestApi;
  const ownFile = join(scratch, 'videos.json');

  beforeAll(async () => {
    writeFileSync(
      ownFile,
      JSON.stringify([
        {
          id: 'county-radio-procedures',
          title: 'County radio procedures',
          url: 'https://media.example.org/training/radio.mp4',
        },
        {
          id: 'locating-a-caller',
          title: 'Locating a caller (our version)',
          description: 'Recorded in our own centre.',
          url: '/training-media/locating-a-caller.mp4',
          durationSeconds: 13,
        },
      ]),
    );
    own = await startApi({
      databaseUrl: stack.database.url,
      redisPrefix: stack.redisPrefix,
      env: { AUTH_RATE_LIMIT_MAX: '10000', TRAINING_VIDEOS_FILE: ownFile },
    });
  });

  afterAll(async () => {
    await own?.close();
  });

  it('lists its videos with the watched state kept by id, and lets their origin through the CSP', async () => {
    const token = await signIn(own, 'dispatcher2@demo-county.test');
    const answer = await call<{ videos: Video[] }>(own, 'GET', base, { token });
    expect(answer.status).toBe(200);
    expect(answer.body.videos).toEqual([
      {
        id: 'county-radio-procedures',
        title: 'County radio procedures',
        description: '',
        url: 'https://media.example.org/training/radio.mp4',
        captionsUrl: null,
        durationSeconds: null,
        watchedAt: null,
      },
      expect.objectContaining({
        id: 'locating-a-caller',
        title: 'Locating a caller (our version)',
        // Marked on the other instance, earlier in this file.
        watchedAt: expect.any(String) as string,
      }),
    ]);
    expect(
      (await call(own, 'POST', `${base}/admin-users-teams-metrics/watched`, { token })).status,
    ).toBe(404);
    const csp = answer.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/media-src 'self'[^;]* https:\/\/media\.example\.org/);
  });
});

describe('a broken list stops the API at boot', () => {
  const env = (file: string, extra: Record<string, string> = {}) => ({
    DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    REDIS_URL: 'redis://127.0.0.1:1',
    TRAINING_VIDEOS_FILE: file,
    ...extra,
  });
  const write = (name: string, content: string) => {
    const path = join(scratch, name);
    writeFileSync(path, content);
    return path;
  };
  const problemsOf = (file: string, extra?: Record<string, string>) => {
    try {
      parseConfig(env(file, extra));
    } catch (error) {
      return (error as Error).message;
    }
    return 'no error';
  };

  it('names the file and what is wrong with it', () => {
    expect(problemsOf(join(scratch, 'absent.json'))).toMatch(
      /TRAINING_VIDEOS_FILE: cannot read .*absent\.json \(ENOENT\)/,
    );
    expect(problemsOf(write('not-json.json', '[{'))).toMatch(
      /TRAINING_VIDEOS_FILE: .*not-json\.json is not JSON/,
    );
    const entry = { id: 'one', title: 'One', url: '/training-media/locating-a-caller.mp4' };
    expect(problemsOf(write('twice.json', JSON.stringify([entry, entry])))).toMatch(
      /\[1\.id\] is listed twice/,
    );
    expect(
      problemsOf(write('bad-url.json', JSON.stringify([{ ...entry, url: 'javascript:alert(1)' }]))),
    ).toMatch(/\[0\.url\] must be \/training-media\/<file>/);
    expect(
      problemsOf(write('bad-id.json', JSON.stringify([{ ...entry, id: 'Has Spaces' }]))),
    ).toMatch(/\[0\.id\] Lower-case letters, digits and dashes only/);
    expect(
      problemsOf(write('unknown-field.json', JSON.stringify([{ ...entry, autoplay: true }]))),
    ).toMatch(/autoplay/);
    expect(
      problemsOf(
        write(
          'missing-file.json',
          JSON.stringify([{ ...entry, url: '/training-media/not-there.mp4' }]),
        ),
      ),
    ).toMatch(/\[0\.url\] \/training-media\/not-there\.mp4 is not a file in /);
    expect(problemsOf(write('not-array.json', '{"videos":[]}'))).toMatch(
      /TRAINING_VIDEOS_FILE: .*not-array\.json: Expected array/i,
    );
  });

  it('accepts the shipped list and an empty one', () => {
    expect(problemsOf(write('empty.json', '[]'))).toBe('no error');
    const shipped = parseConfig({
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    expect(shipped.TRAINING_VIDEOS_FILE).toMatch(/services\/api\/training\/videos\.json$/);
    expect(shipped.TRAINING_MEDIA_DIR).toMatch(/services\/api\/training\/media$/);
  });
});
