import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  buildEvidenceFile,
  canonicalJson,
  chainGenesis,
  chainRecords,
  EVIDENCE_FORMAT,
  generateEvidenceKeyPem,
  loadEd25519PrivateKey,
  loadEd25519PublicKey,
  publicKeyId,
  signedPayload,
  verifyEvidence,
  type EvidenceFile,
  type EvidenceRecordInput,
  type JsonValue,
} from './evidence';

const keys = generateEvidenceKeyPem();
const privateKey = loadEd25519PrivateKey(keys.privateKeyPem);
const session = {
  id: '6f1c1b1e-2a59-4c1e-9a55-0c4f7f1e2d3a',
  teamId: '0b7e6c0e-1d2f-4a3b-8c9d-0e1f2a3b4c5d',
  agencyName: 'Demo County 911',
  startedAt: '2026-11-29T14:00:00.000Z',
  endedAt: '2026-11-29T14:20:00.000Z',
  externalReference: 'CAD-42',
};

function fix(seq: number, latitude: number): EvidenceRecordInput {
  return {
    kind: 'fix',
    seq,
    data: { latitude, longitude: -89.654321, accuracy: 12, capturedAt: 1_764_424_800_000 + seq },
  };
}

/** Ten records: consent, then fixes with seq 1…, an event and a chat message among them. */
function inputs(): EvidenceRecordInput[] {
  return [
    { kind: 'consent', seq: null, data: { language: 'en', shownText: { title: 'Share?' } } },
    fix(1, 39.781234),
    fix(2, 39.781301),
    { kind: 'event', seq: 3, data: { type: 'caller-connected', at: '2026-11-29T14:01:00Z' } },
    fix(4, 39.781355),
    fix(5, 39.781402),
    { kind: 'chat', seq: 6, data: { from: 'dispatcher', text: 'Help is on the way — stay put' } },
    fix(7, 39.781456),
    fix(8, 39.781511),
    fix(9, 39.781577),
  ];
}

function build(records = inputs()): EvidenceFile {
  return buildEvidenceFile({
    session,
    exportedAt: new Date('2026-11-29T14:30:00.000Z'),
    records,
    privateKey,
  });
}

/** The file as a partner receives it: JSON text, parsed again. */
function roundTrip(file: EvidenceFile): EvidenceFile {
  return JSON.parse(JSON.stringify(file, null, 2)) as EvidenceFile;
}

function problemsOf(file: unknown, options?: Parameters<typeof verifyEvidence>[1]) {
  const result = verifyEvidence(file, options);
  if (result.ok) throw new Error('expected the file not to verify');
  return result.problems;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

describe('canonicalJson', () => {
  it('sorts keys recursively and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: true }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":true,"z":null}]},"b":1}',
    );
  });

  it('orders keys by UTF-16 code units, not by code point or locale', () => {
    // U+1F600 (surrogates D83D DE00) sorts before U+FB01 in UTF-16, after it by code point.
    const value = { '\u{1F600}': 1, '\uFB01': 2, a: 3, B: 4, é: 5, '': 6 };
    expect(canonicalJson(value)).toBe('{"":6,"B":4,"a":3,"é":5,"😀":1,"ﬁ":2}');
  });

  it('writes strings and numbers as JSON.stringify does', () => {
    expect(canonicalJson(['é\n"\\', '\u2028', 1e21, 0.1, -0, 5e-7, 1.5])).toBe(
      `[${JSON.stringify('é\n"\\')},${JSON.stringify('\u2028')},1e+21,0.1,0,5e-7,1.5]`,
    );
    expect(canonicalJson('\uD800')).toBe('"\\ud800"');
  });

  it('refuses what JSON cannot hold', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(/NaN/);
    expect(() => canonicalJson({ a: Number.POSITIVE_INFINITY })).toThrow(/\$\.a is Infinity/);
    expect(() => canonicalJson({ a: undefined } as unknown as JsonValue)).toThrow(/undefined/);
    expect(() => canonicalJson([new Date(0)] as unknown as JsonValue)).toThrow(/plain object/);
    expect(() => canonicalJson([1, , 3] as unknown as JsonValue)).toThrow(/hole/);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalJson(cycle as JsonValue)).toThrow(/itself/);
  });
});

describe('the chain', () => {
  it('starts at the session genesis and links each record to the one before', () => {
    const genesis = chainGenesis(session.id);
    expect(genesis).toBe(sha256(`{"format":"${EVIDENCE_FORMAT}","sessionId":"${session.id}"}`));
    const { records, head } = chainRecords(session.id, inputs());
    expect(records[0]!.prev).toBe(genesis);
    records.forEach((record, i) => {
      expect(record.index).toBe(i);
      if (i > 0) expect(record.prev).toBe(records[i - 1]!.hash);
      expect(record.hash).toBe(
        sha256(
          canonicalJson({
            prev: record.prev,
            kind: record.kind,
            seq: record.seq,
            data: record.data,
          }),
        ),
      );
    });
    expect(head).toBe(records.at(-1)!.hash);
    expect(chainRecords(session.id, [])).toEqual({ records: [], genesis, head: genesis });
  });

  it('refuses a record that could not be checked later', () => {
    expect(() => chainRecords(session.id, [{ kind: 'fix', seq: 1.5, data: null }])).toThrow(/seq/);
    expect(() =>
      chainRecords(session.id, [{ kind: 'photo' as 'fix', seq: 1, data: null }]),
    ).toThrow(/kind/);
  });
});

describe('an evidence file', () => {
  it('verifies as written, after a JSON round trip', () => {
    const file = build();
    const result = verifyEvidence(roundTrip(file));
    expect(result).toEqual({
      ok: true,
      count: 10,
      head: file.chain.head,
      keyId: file.signature.keyId,
      session,
    });
    expect(file.signature.keyId).toBe(
      publicKeyId(createPublicKey(keys.publicKeyPem).export({ type: 'spki', format: 'der' })),
    );
    expect(file.exportedAt).toBe('2026-11-29T14:30:00.000Z');
    expect(file.chain).toEqual({
      algorithm: 'sha256',
      genesis: chainGenesis(session.id),
      head: file.records.at(-1)!.hash,
      count: 10,
    });
    expect(verifyEvidence(roundTrip(file), { trustedPublicKey: keys.publicKeyPem }).ok).toBe(true);
    expect(verifyEvidence(roundTrip(file), { trustedPublicKey: file.signature.publicKey }).ok).toBe(
      true,
    );
  });

  it('verifies with no records at all', () => {
    const file = build([]);
    expect(file.chain.head).toBe(chainGenesis(session.id));
    expect(verifyEvidence(roundTrip(file))).toMatchObject({ ok: true, count: 0 });
  });

  it('names the record whose content changed by one byte, and nothing else', () => {
    const text = JSON.stringify(build(), null, 2);
    // One digit of record 5's latitude (a fix, seq 5): 39.781402 → 39.781403.
    const altered = text.replace('39.781402', '39.781403');
    expect(altered).not.toBe(text);
    expect(problemsOf(JSON.parse(altered))).toEqual([
      {
        index: 5,
        kind: 'fix',
        seq: 5,
        problem: 'altered',
        message: 'Record 5 (fix, seq 5) was altered: its content does not match its hash.',
      },
    ]);
  });

  it('lists every altered record, the first first', () => {
    const file = roundTrip(build());
    (file.records[7]!.data as { latitude: number }).latitude = 0;
    (file.records[2]!.data as { latitude: number }).latitude = 0;
    file.records[6]!.seq = 60;
    const problems = problemsOf(file);
    expect(problems.map((p) => [p.problem, p.index, p.seq])).toEqual([
      ['altered', 2, 2],
      ['altered', 6, 60],
      ['altered', 7, 7],
    ]);
  });

  it('reports a removed record at the one after it, and the count', () => {
    const file = roundTrip(build());
    file.records.splice(4, 1);
    const problems = problemsOf(file);
    expect(problems.map((p) => [p.problem, p.index])).toEqual([
      ['bad-index', 4],
      ['broken-link', 4],
      ['count-mismatch', null],
    ]);
    expect(problems[1]!.message).toBe(
      'Record 4 (fix, seq 5) does not follow the record before it: a record before it was removed, inserted or reordered.',
    );
    expect(problems[2]!.message).toMatch(/holds 10 records, but the file has 9/);
  });

  it('reports the last record removed as a head and count mismatch', () => {
    const file = roundTrip(build());
    file.records.pop();
    expect(problemsOf(file).map((p) => p.problem)).toEqual(['head-mismatch', 'count-mismatch']);
  });

  it('reports the first record removed at the new first record', () => {
    const file = roundTrip(build());
    file.records.shift();
    expect(problemsOf(file).map((p) => [p.problem, p.index])).toEqual([
      ['bad-index', 0],
      ['broken-link', 0],
      ['count-mismatch', null],
    ]);
  });

  it('reports two records swapped', () => {
    const file = roundTrip(build());
    [file.records[3], file.records[4]] = [file.records[4]!, file.records[3]!];
    const problems = problemsOf(file);
    expect(problems.every((p) => p.problem === 'bad-index' || p.problem === 'broken-link')).toBe(
      true,
    );
    expect(problems[0]).toMatchObject({ index: 3, seq: 4 });
    expect(problems.filter((p) => p.problem === 'broken-link').map((p) => p.index)).toEqual([
      3, 4, 5,
    ]);
  });

  it('reports a record inserted', () => {
    const original = build();
    const file = roundTrip(original);
    // Forged with its own correct hash, but it cannot be both after record 2 and before 3.
    const forged = chainRecords(session.id, [...inputs().slice(0, 3), fix(99, 40)]).records[3]!;
    file.records.splice(3, 0, forged);
    const problems = problemsOf(file);
    expect(problems.map((p) => [p.problem, p.index])).toEqual([
      ['bad-index', 4],
      ['broken-link', 4],
      ['count-mismatch', null],
    ]);
  });

  it('fails the signature when the chain was recomputed after an edit', () => {
    const file = roundTrip(build());
    const edited = inputs();
    (edited[5]!.data as { latitude: number }).latitude = 40.5;
    const rechained = chainRecords(session.id, edited);
    file.records = rechained.records;
    file.chain.head = rechained.head;
    expect(problemsOf(file)).toEqual([
      expect.objectContaining({
        problem: 'bad-signature',
        index: null,
        message: expect.stringContaining('the chain was changed after it was signed'),
      }),
    ]);
  });

  it('fails the signature when the session details or the export time change', () => {
    const renamed = roundTrip(build());
    renamed.session.externalReference = 'CAD-43';
    expect(problemsOf(renamed).map((p) => p.problem)).toEqual(['bad-signature']);
    const later = roundTrip(build());
    later.exportedAt = '2026-11-30T14:30:00.000Z';
    expect(problemsOf(later).map((p) => p.problem)).toEqual(['bad-signature']);
    const otherSession = roundTrip(build());
    otherSession.session.id = '00000000-0000-4000-8000-000000000000';
    expect(problemsOf(otherSession).map((p) => p.problem)).toEqual([
      'broken-link',
      'head-mismatch',
      'bad-signature',
    ]);
  });

  it('refuses a file re-signed with another key when a trusted key is given', () => {
    const other = generateKeyPairSync('ed25519');
    const forged = buildEvidenceFile({
      session,
      exportedAt: new Date('2026-11-29T14:30:00.000Z'),
      records: inputs(),
      privateKey: other.privateKey,
    });
    // Consistent in itself, so without a trusted key it is only "signed by key <other>".
    expect(verifyEvidence(roundTrip(forged))).toMatchObject({
      ok: true,
      keyId: publicKeyId(other.publicKey.export({ type: 'spki', format: 'der' })),
    });
    const problems = problemsOf(roundTrip(forged), {
      trustedPublicKey: createPublicKey(keys.publicKeyPem),
    });
    expect(problems).toEqual([expect.objectContaining({ problem: 'untrusted-key', index: null })]);
    expect(problems[0]!.message).toContain(forged.signature.keyId);
  });

  it('refuses a key id that does not belong to the public key, and a swapped public key', () => {
    const wrongId = roundTrip(build());
    wrongId.signature.keyId = '0123456789abcdef';
    expect(problemsOf(wrongId).map((p) => p.problem)).toEqual(['bad-signature']);
    const swapped = roundTrip(build());
    const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' });
    swapped.signature.publicKey = other.toString('base64');
    swapped.signature.keyId = publicKeyId(other);
    expect(problemsOf(swapped).map((p) => p.problem)).toEqual(['bad-signature']);
  });

  it('signs exactly the signed payload', () => {
    const file = build();
    expect(signedPayload(file)).toBe(
      canonicalJson({
        format: file.format,
        session: { ...file.session },
        exportedAt: file.exportedAt,
        chain: { ...file.chain },
      }),
    );
    expect(signedPayload(file)).not.toContain('records');
  });

  it('refuses fields the hashes and the signature do not cover', () => {
    const file = roundTrip(build()) as unknown as Record<string, unknown> & EvidenceFile;
    (file.records[2] as unknown as Record<string, unknown>).note = 'seen at the corner';
    file.comment = 'x';
    const problems = problemsOf(file);
    expect(problems.every((p) => p.problem === 'bad-format')).toBe(true);
    expect(problems.map((p) => p.message).join(' ')).toContain('"comment"');
  });

  it('reports a malformed record by its position and still checks the others', () => {
    const file = roundTrip(build()) as unknown as { records: Record<string, unknown>[] };
    file.records[3]!.kind = 'photo';
    (file.records[6]!.data as { text: string }).text = 'Stay where you are';
    const problems = problemsOf(file);
    expect(problems.map((p) => [p.problem, p.index])).toEqual([
      ['bad-format', 3],
      ['altered', 6],
    ]);
    expect(problems[0]!.message).toMatch(
      /^Record 3 \(unknown kind, seq 3\) is malformed: its kind/,
    );
  });
});

describe('hostile input', () => {
  const valid = () => roundTrip(build()) as unknown as Record<string, unknown>;
  const cases: [string, unknown][] = [
    ['null', null],
    ['an array', []],
    ['a string', 'locus-evidence/1'],
    ['a number', 42],
    ['true', true],
    ['an empty object', {}],
    ['another format', { ...valid(), format: 'locus-evidence/2' }],
    ['records not a list', { ...valid(), records: { 0: 1 } }],
    ['no signature', { ...valid(), signature: null }],
    ['a signature not base64', { ...valid(), signature: { ...build().signature, value: '%%' } }],
    ['a chain head not hex', { ...valid(), chain: { ...build().chain, head: 'ABC' } }],
    ['a negative count', { ...valid(), chain: { ...build().chain, count: -1 } }],
    ['a session of the wrong shape', { ...valid(), session: { id: 7 } }],
    ['records of null', { ...valid(), records: [null, 1, 'x', [], {}] }],
    [
      'a public key that is no key',
      {
        ...valid(),
        signature: { ...build().signature, publicKey: Buffer.from('hello').toString('base64') },
      },
    ],
  ];
  it.each(cases)('reports %s without throwing', (_name, input) => {
    const result = verifyEvidence(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.length).toBeGreaterThan(0);
    for (const problem of result.problems) {
      expect(['bad-format', 'bad-signature', 'count-mismatch', 'head-mismatch']).toContain(
        problem.problem,
      );
      expect(problem.message).toMatch(/^[A-Z].*\.$/);
      expect(problem.message).not.toContain('\n');
    }
  });

  it('reports a shape problem, never a crash, for a top-level value that is not an object', () => {
    for (const input of [null, [], 'x', 1, undefined]) {
      expect(problemsOf(input)).toEqual([
        expect.objectContaining({ problem: 'bad-format', index: null }),
      ]);
    }
  });

  it('survives data nested deeper than the stack', () => {
    let deep: JsonValue = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const file = valid() as unknown as EvidenceFile;
    file.records[1]!.data = deep;
    expect(() => verifyEvidence(file)).not.toThrow();
    expect(problemsOf(file)[0]).toMatchObject({ problem: 'bad-format', index: 1 });
  });
});

describe('keys', () => {
  it('loads the PEM, base64 DER and escaped-newline forms of one key', () => {
    const pem = keys.privateKeyPem;
    const der = createPrivateKey(pem).export({ type: 'pkcs8', format: 'der' });
    const fromEnv = pem.replace(/\n/g, '\\n');
    const id = (key: ReturnType<typeof loadEd25519PrivateKey>) =>
      publicKeyId(createPublicKey(key).export({ type: 'spki', format: 'der' }));
    expect(id(loadEd25519PrivateKey(der.toString('base64')))).toBe(id(privateKey));
    expect(id(loadEd25519PrivateKey(fromEnv))).toBe(id(privateKey));
    expect(loadEd25519PublicKey(keys.publicKeyPem).asymmetricKeyType).toBe('ed25519');
    expect(id(privateKey)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('refuses a key that is not Ed25519', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const rsaPem = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => loadEd25519PrivateKey(rsaPem)).toThrow(/not Ed25519/);
    expect(() =>
      buildEvidenceFile({
        session,
        exportedAt: new Date(),
        records: [],
        privateKey: rsa.privateKey,
      }),
    ).toThrow(/not Ed25519/);
    expect(() => verifyEvidence(build(), { trustedPublicKey: rsa.publicKey })).toThrow(
      /not Ed25519/,
    );
  });
});
