import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApertiumTranslator, detectApertiumModes } from './apertium';

// Against the real Apertium of this machine (npm test installs Debian's packages when missing).
const open = () => new AbortController().signal;
const engine = new ApertiumTranslator();

describe('Apertium', () => {
  it('is installed with the pairs Locus uses', () => {
    expect(detectApertiumModes()).toEqual(
      expect.arrayContaining(['eng-spa', 'spa-eng', 'fr-es', 'es-fr']),
    );
    expect(engine.installed).toBe(true);
  });

  it('covers English, Spanish and French both ways, and not Mandarin', () => {
    for (const [from, to] of [
      ['en', 'es'],
      ['es', 'en'],
      ['fr', 'es'],
      ['es', 'fr'],
      ['en', 'fr'],
      ['fr', 'en'],
    ] as const)
      expect(engine.covers(from, to)).toBe(true);
    expect(engine.route('en', 'fr')).toEqual(['eng-spa', 'es-fr']);
    expect(engine.covers('en', 'zh')).toBe(false);
    expect(engine.covers('zh', 'es')).toBe(false);
    expect(engine.covers('en', 'en')).toBe(false);
  });

  it('translates English to Spanish and back', async () => {
    const toSpanish = await engine.translate('Help is on the way.', 'en', 'es', open());
    expect(toSpanish).toMatchObject({ status: 'translated', engine: 'apertium' });
    expect(toSpanish.status === 'translated' && toSpanish.text).toMatch(/ayuda/i);
    const toEnglish = await engine.translate('Necesito ayuda.', 'es', 'en', open());
    expect(toEnglish.status === 'translated' && toEnglish.text).toMatch(/help/i);
  });

  it('translates French and Spanish both ways, and English to French through Spanish', async () => {
    const fromFrench = await engine.translate('Je suis dans la maison.', 'fr', 'es', open());
    expect(fromFrench.status === 'translated' && fromFrench.text).toMatch(/casa/i);
    const toFrench = await engine.translate('Estoy en la casa.', 'es', 'fr', open());
    expect(toFrench.status === 'translated' && toFrench.text).toMatch(/maison/i);
    const pivoted = await engine.translate('I am in the house.', 'en', 'fr', open());
    expect(pivoted.status === 'translated' && pivoted.text).toMatch(/maison/i);
    const back = await engine.translate('Je suis dans la maison.', 'fr', 'en', open());
    expect(back.status === 'translated' && back.text).toMatch(/house/i);
  });

  it('Mandarin is "not translated"', async () => {
    await expect(engine.translate('Are you safe?', 'en', 'zh', open())).resolves.toMatchObject({
      status: 'not-translated',
    });
  });

  it('hostile text stays text: no shell runs it, markup passes through as characters', async () => {
    // Digits only after the prefix: a random UUID's letters can form words Apertium translates
    // (a CI run saw the marker come back changed), which would fail the test for nothing.
    const marker = join(tmpdir(), `locus-pwned-${process.pid}-${Date.now()}`);
    const result = await engine.translate(
      `Help $(mkdir ${marker}) \`mkdir ${marker}\` <script>alert(1)</script>; rm -rf /`,
      'en',
      'es',
      open(),
    );
    expect(result.status).toBe('translated');
    const text = result.status === 'translated' ? result.text : '';
    // Apertium translates the words it knows; the shell and markup characters come back as text.
    expect(text).toContain(`$(mkdir ${marker})`);
    expect(text).toContain(`\`mkdir ${marker}\``);
    expect(text).toMatch(/<[^>]+>[^<]*\(1\)<\/[^>]+>/);
    expect(existsSync(marker)).toBe(false);
  });

  it('an abort ends the translation at once', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(engine.translate('Hello', 'en', 'es', controller.signal)).resolves.toMatchObject({
      status: 'not-translated',
      reason: 'Apertium: aborted',
    });
  });

  it('runs at most maxConcurrent pipelines; the others wait their turn and all finish', async () => {
    // The time limit counts the wait for a slot; this test is about the slots, so it gives the
    // queue room on a loaded test machine (the limit has its own test below).
    const narrow = new ApertiumTranslator({ maxConcurrent: 1, timeoutMs: 60_000 });
    const results = await Promise.all(
      ['Hello.', 'Good morning.', 'Thank you.'].map((text) =>
        narrow.translate(text, 'en', 'es', open()),
      ),
    );
    expect(results.map((result) => result.status)).toEqual([
      'translated',
      'translated',
      'translated',
    ]);
  });

  it('a pipeline past its deadline is killed and "not translated"', async () => {
    const hasty = new ApertiumTranslator({ timeoutMs: 1 });
    await expect(hasty.translate('Hello there.', 'en', 'es', open())).resolves.toMatchObject({
      status: 'not-translated',
      reason: 'Apertium: timed out',
    });
  });
});
