import {
  buildEvidenceFile,
  generateEvidenceKeyPem,
  loadEd25519PrivateKey,
  type EvidenceRecordInput,
} from '@locus/client/evidence';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 15: a partner or a court clerk checks an evidence file offline with
// `npm run verify-export FILE` and is told exactly which record was altered.

const repoRoot = join(import.meta.dirname, '../..');
const cliFile = join(repoRoot, 'packages/client/src/verify-export-cli.ts');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runProcess(command: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, INIT_CWD: undefined, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The CLI as its own process, the way the root script ends up running it. */
const verifyExport = (...args: string[]) =>
  runProcess(process.execPath, ['--import', 'tsx', cliFile, ...args], repoRoot);

let dir: string;
let validFile: string;
let alteredFile: string;
let publicKeyFile: string;
let otherPublicKeyFile: string;
let head: string;
let keyId: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'locus-evidence-'));
  const keys = generateEvidenceKeyPem();
  const records: EvidenceRecordInput[] = [
    { kind: 'consent', seq: null, data: { language: 'es', shownText: { title: '¿Compartir?' } } },
    ...[1, 2, 3, 4].map((seq): EvidenceRecordInput => ({
      kind: 'fix',
      seq,
      data: { latitude: 39.7812 + seq / 10_000, longitude: -89.6543, accuracy: 8 },
    })),
    { kind: 'chat', seq: 5, data: { from: 'caller', text: 'I am by the red barn' } },
  ];
  const file = buildEvidenceFile({
    session: {
      id: 'b1c7f0de-5d0e-4b8e-9d43-4b8c1c2f9e10',
      teamId: '2f0e5a4b-8f1d-4a4e-b3b5-6f0f3e2d1c0b',
      agencyName: 'Demo County 911',
      startedAt: '2026-11-29T14:00:00.000Z',
      endedAt: '2026-11-29T14:12:00.000Z',
      externalReference: 'CAD-7',
    },
    exportedAt: new Date('2026-11-29T14:15:00.000Z'),
    records,
    privateKey: loadEd25519PrivateKey(keys.privateKeyPem),
  });
  head = file.chain.head;
  keyId = file.signature.keyId;
  const text = JSON.stringify(file, null, 2);
  validFile = join(dir, 'evidence.json');
  writeFileSync(validFile, text);
  // One byte: the third fix's latitude 39.7815 → 39.7816 (record 3, seq 3).
  const altered = text.replace('"latitude": 39.7815', '"latitude": 39.7816');
  expect(altered).not.toBe(text);
  alteredFile = join(dir, 'altered.json');
  writeFileSync(alteredFile, altered);
  publicKeyFile = join(dir, 'locus-evidence.pub.pem');
  writeFileSync(publicKeyFile, keys.publicKeyPem);
  otherPublicKeyFile = join(dir, 'other.pub.pem');
  writeFileSync(otherPublicKeyFile, generateEvidenceKeyPem().publicKeyPem);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('verify-export', () => {
  it('says an intact file without --key is not checked for its signer (exit 3)', async () => {
    const run = await verifyExport(validFile);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(3);
    expect(run.stdout.split('\n')[0]).toBe(
      `intact: 6 records, chain head ${head}, signed by key ${keyId}`,
    );
    expect(run.stdout).toContain('session b1c7f0de-5d0e-4b8e-9d43-4b8c1c2f9e10 of Demo County 911');
    expect(run.stdout).toContain('NOT CHECKED: who signed it');
  });

  it('checks the key with --key', async () => {
    const trusted = await verifyExport(validFile, '--key', publicKeyFile);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout.split('\n')[0]).toBe(
      `valid: 6 records, chain head ${head}, signed by key ${keyId}, the trusted key`,
    );
    const other = await verifyExport(`--key=${otherPublicKeyFile}`, validFile);
    expect(other.code).toBe(1);
    expect(other.stdout).toMatch(
      /^NOT VALID:\n {2}The file was signed by key [0-9a-f]{16}, not by/,
    );
  });

  it('names the record in which one byte was changed', async () => {
    const run = await verifyExport(alteredFile);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      'NOT VALID:\n  Record 3 (fix, seq 3) was altered: its content does not match its hash.\n',
    );
  });

  it('exits 2, saying why, when it cannot check the file', async () => {
    const notJson = join(dir, 'not-json.json');
    writeFileSync(notJson, '{"format": "locus-evidence/1",');
    const cases: [string[], RegExp][] = [
      [[], /which file\?[\s\S]*usage: npm run verify-export -- FILE/],
      [[join(dir, 'missing.json')], /cannot read .*missing\.json: no such file/],
      [[notJson], /not-json\.json is not JSON/],
      [[validFile, '--key', join(dir, 'nope.pem')], /cannot read the key file .*nope\.pem/],
      [[validFile, '--key', validFile], /is not an Ed25519 public key PEM/],
      [[validFile, '--verbose'], /unknown option --verbose/],
    ];
    for (const [args, message] of cases) {
      const run = await verifyExport(...args);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    }
  });

  it('runs as `npm run verify-export -- FILE` from the repository, with a path relative to where it was typed', async () => {
    const run = await runProcess(
      'npm',
      ['--prefix', repoRoot, 'run', '--silent', 'verify-export', '--', 'altered.json'],
      dir,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('NOT VALID:\n  Record 3 (fix, seq 3) was altered');
  }, 60_000);
});
