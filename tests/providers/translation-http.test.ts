import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeepLTranslator } from '../../services/api/src/modules/chat/translation/deepl';
import { createTranslator } from '../../services/api/src/modules/chat/translation/index';
import { LibreTranslateTranslator } from '../../services/api/src/modules/chat/translation/libretranslate';
import { FakeDeepL } from '../fakes/deepl-server';
import { FakeLibreTranslate } from '../fakes/libretranslate-server';

// The production HTTP engines against fake servers that speak LibreTranslate's and DeepL's APIs.
const open = () => new AbortController().signal;

describe('LibreTranslate', () => {
  let fake: FakeLibreTranslate;
  beforeAll(async () => {
    fake = await FakeLibreTranslate.start();
  });
  afterAll(async () => {
    await fake?.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.phrases.clear();
    fake.apiKey = null;
    fake.delayMs = 0;
    fake.failWith = null;
  });

  it('translates a dispatcher message into Spanish with the request LibreTranslate expects', async () => {
    fake.apiKey = 'secret-key';
    fake.phrases.set('en:es:Are you hurt?', '¿Estás herido?');
    const engine = new LibreTranslateTranslator({ url: `${fake.url}/`, apiKey: 'secret-key' });
    expect(engine.covers('en', 'es')).toBe(true);
    expect(engine.covers('en', 'en')).toBe(false);
    await expect(engine.translate('Are you hurt?', 'en', 'es', open())).resolves.toEqual({
      status: 'translated',
      text: '¿Estás herido?',
      engine: 'libretranslate',
    });
    expect(fake.requests).toEqual([
      { q: 'Are you hurt?', source: 'en', target: 'es', format: 'text', api_key: 'secret-key' },
    ]);
  });

  it('sends Mandarin as zh and hostile text as plain text', async () => {
    const engine = new LibreTranslateTranslator({ url: fake.url });
    const result = await engine.translate('<script>alert(1)</script>', 'en', 'zh', open());
    expect(result).toEqual({
      status: 'translated',
      text: '[zh] <script>alert(1)</script>',
      engine: 'libretranslate',
    });
    expect(fake.requests[0]).toMatchObject({ target: 'zh', format: 'text' });
    expect(fake.requests[0]).not.toHaveProperty('api_key');
  });

  it('a refused key, an unsupported language or a server error is "not translated" with the reason', async () => {
    fake.apiKey = 'right';
    const wrongKey = new LibreTranslateTranslator({ url: fake.url, apiKey: 'wrong' });
    await expect(wrongKey.translate('Hello', 'en', 'es', open())).resolves.toEqual({
      status: 'not-translated',
      reason: 'LibreTranslate: HTTP 403 (Invalid API key)',
    });
    fake.apiKey = null;
    fake.languages = new Set(['en', 'es']);
    const engine = new LibreTranslateTranslator({ url: fake.url });
    await expect(engine.translate('Hello', 'en', 'fr', open())).resolves.toEqual({
      status: 'not-translated',
      reason: 'LibreTranslate: HTTP 400 (fr is not supported)',
    });
    fake.languages = new Set(['en', 'es', 'fr', 'zh']);
    fake.failWith = { status: 500, error: 'Translation model crashed' };
    await expect(engine.translate('Hello', 'en', 'es', open())).resolves.toEqual({
      status: 'not-translated',
      reason: 'LibreTranslate: HTTP 500 (Translation model crashed)',
    });
  });

  it('gives up when the caller aborts, and on its own deadline', async () => {
    fake.delayMs = 5_000;
    const engine = new LibreTranslateTranslator({ url: fake.url });
    const controller = new AbortController();
    const pending = engine.translate('Hello', 'en', 'es', controller.signal);
    await expect.poll(() => fake.requests.length).toBe(1);
    controller.abort();
    await expect(pending).resolves.toEqual({
      status: 'not-translated',
      reason: 'LibreTranslate: aborted',
    });
    const hasty = new LibreTranslateTranslator({ url: fake.url, timeoutMs: 100 });
    await expect(hasty.translate('Hello', 'en', 'es', open())).resolves.toEqual({
      status: 'not-translated',
      reason: 'LibreTranslate: timed out',
    });
  });

  it('an unreachable server is "not translated", never a crash', async () => {
    const engine = new LibreTranslateTranslator({ url: 'http://127.0.0.1:9' });
    const result = await engine.translate('Hello', 'en', 'es', open());
    expect(result.status).toBe('not-translated');
  });
});

describe('DeepL', () => {
  let fake: FakeDeepL;
  beforeAll(async () => {
    fake = await FakeDeepL.start();
  });
  afterAll(async () => {
    await fake?.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.phrases.clear();
    fake.quotaLeft = Number.POSITIVE_INFINITY;
    fake.delayMs = 0;
    fake.failWith = null;
  });

  it('translates with the key header and DeepL language codes (Mandarin as ZH-HANS)', async () => {
    fake.phrases.set('ZH:EN-US:我很安全', 'I am safe');
    const engine = new DeepLTranslator({ url: fake.url, apiKey: fake.apiKey });
    await expect(engine.translate('我很安全', 'zh', 'en', open())).resolves.toEqual({
      status: 'translated',
      text: 'I am safe',
      engine: 'deepl',
    });
    await engine.translate('Help is coming', 'en', 'zh', open());
    expect(fake.requests).toEqual([
      {
        authorization: `DeepL-Auth-Key ${fake.apiKey}`,
        text: ['我很安全'],
        source_lang: 'ZH',
        target_lang: 'EN-US',
      },
      {
        authorization: `DeepL-Auth-Key ${fake.apiKey}`,
        text: ['Help is coming'],
        source_lang: 'EN',
        target_lang: 'ZH-HANS',
      },
    ]);
  });

  it('a bad key, a used-up quota, too many requests and a 500 are "not translated" with the reason', async () => {
    const badKey = new DeepLTranslator({ url: fake.url, apiKey: 'not-the-key:fx' });
    await expect(badKey.translate('Hello', 'en', 'es', open())).resolves.toMatchObject({
      status: 'not-translated',
      reason: expect.stringContaining('the API key was refused (403)') as string,
    });
    const engine = new DeepLTranslator({ url: fake.url, apiKey: fake.apiKey });
    fake.quotaLeft = 3;
    await expect(engine.translate('Hello', 'en', 'es', open())).resolves.toMatchObject({
      status: 'not-translated',
      reason: expect.stringContaining('the quota is used up (456)') as string,
    });
    fake.failWith = { status: 429, message: 'Too many requests' };
    await expect(engine.translate('Hello', 'en', 'es', open())).resolves.toMatchObject({
      reason: expect.stringContaining('too many requests (429)') as string,
    });
    fake.failWith = { status: 500, message: 'Internal error' };
    await expect(engine.translate('Hello', 'en', 'es', open())).resolves.toEqual({
      status: 'not-translated',
      reason: 'DeepL: HTTP 500 (Internal error)',
    });
  });

  it('a slow answer is given up when the caller aborts', async () => {
    fake.delayMs = 5_000;
    const engine = new DeepLTranslator({ url: fake.url, apiKey: fake.apiKey });
    const controller = new AbortController();
    const pending = engine.translate('Hello', 'en', 'fr', controller.signal);
    await expect.poll(() => fake.requests.length).toBe(1);
    controller.abort();
    await expect(pending).resolves.toEqual({ status: 'not-translated', reason: 'DeepL: aborted' });
  });
});

describe('createTranslator', () => {
  const base = {
    LIBRETRANSLATE_URL: undefined,
    LIBRETRANSLATE_API_KEY: undefined,
    DEEPL_API_URL: 'https://api-free.deepl.com',
    DEEPL_API_KEY: undefined,
  };

  it('builds the engine the setting names', () => {
    expect(createTranslator({ ...base, TRANSLATION_PROVIDER: 'none' }).name).toBe('none');
    expect(
      createTranslator({
        ...base,
        TRANSLATION_PROVIDER: 'libretranslate',
        LIBRETRANSLATE_URL: 'http://127.0.0.1:5000',
      }).name,
    ).toBe('libretranslate');
    expect(
      createTranslator({ ...base, TRANSLATION_PROVIDER: 'deepl', DEEPL_API_KEY: 'k:fx' }).name,
    ).toBe('deepl');
  });

  it('Apertium that is not installed says once what to install, and translates nothing', async () => {
    const warnings: string[] = [];
    const engine = createTranslator(
      { ...base, TRANSLATION_PROVIDER: 'apertium' },
      (message) => warnings.push(message),
      { binary: '/nonexistent/apertium' },
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('apertium apertium-eng-spa apertium-fr-es');
    expect(engine.covers('en', 'es')).toBe(false);
    await expect(engine.translate('Hello', 'en', 'es', open())).resolves.toMatchObject({
      status: 'not-translated',
    });
  });
});
