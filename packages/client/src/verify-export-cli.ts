import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEd25519PublicKey, verifyEvidence } from './evidence';

/**
 * `npm run verify-export -- FILE [--key PUBLIC_KEY_PEM_FILE]`: checks an evidence file offline.
 * Exit 0: valid and signed by the trusted key given with --key; 1: not valid (one line per
 * problem, naming the record); 2: the command could not check the file (usage, unreadable, not
 * JSON, an unusable key); 3: the chain and its signature hold, but no trusted key was given, so
 * nothing says who signed it (anyone can re-sign an edited file with a key of their own). The
 * deployment publishes its keys at GET /api/v1/evidence/signing-keys.
 */
export const verifyExportUsage = 'usage: npm run verify-export -- FILE [--key PUBLIC_KEY_PEM_FILE]';

export interface VerifyExportIo {
  /** Where relative paths start (npm runs scripts in the repository root; INIT_CWD is the user's). */
  cwd?: string;
  stdout?: (line: string) => void;
  stderr?: (line: string) => void;
}

function parseArgs(args: string[]): { file: string; key: string | null; help: boolean } | string {
  let file: string | null = null;
  let key: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-h' || arg === '--help') return { file: '', key: null, help: true };
    if (arg === '--key' || arg.startsWith('--key=')) {
      if (key !== null) return '--key given twice';
      const value = arg === '--key' ? args[++i] : arg.slice('--key='.length);
      if (!value) return '--key needs the path of a public key PEM file';
      key = value;
    } else if (arg === '--') continue;
    else if (arg.startsWith('-') && arg !== '-') return `unknown option ${arg}`;
    else if (file !== null) return 'give one file at a time';
    else file = arg;
  }
  if (file === null) return 'which file? Give the evidence file to check';
  return { file, key, help: false };
}

function reason(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error) {
    if (error.code === 'ENOENT') return 'no such file';
    if (error.code === 'EACCES') return 'permission denied';
    if (error.code === 'EISDIR') return 'it is a directory';
  }
  return error instanceof Error ? error.message : String(error);
}

/** Runs the command; resolves to its exit code. */
export function verifyExportCli(args: string[], io: VerifyExportIo = {}): number {
  const out = io.stdout ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = io.stderr ?? ((line: string) => process.stderr.write(`${line}\n`));
  const cwd = io.cwd ?? process.cwd();
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    err(`verify-export: ${parsed}`);
    err(verifyExportUsage);
    return 2;
  }
  if (parsed.help) {
    out(verifyExportUsage);
    out('Checks a Locus evidence file: every record against its hash, the chain, the signature.');
    return 0;
  }

  let trustedPublicKey: ReturnType<typeof loadEd25519PublicKey> | undefined;
  if (parsed.key !== null) {
    let keyText: string;
    try {
      keyText = readFileSync(resolve(cwd, parsed.key), 'utf8');
    } catch (error) {
      err(`verify-export: cannot read the key file ${parsed.key}: ${reason(error)}`);
      return 2;
    }
    try {
      trustedPublicKey = loadEd25519PublicKey(keyText);
    } catch (error) {
      err(`verify-export: ${parsed.key} is not an Ed25519 public key PEM: ${reason(error)}`);
      return 2;
    }
  }

  let text: string;
  try {
    text = readFileSync(resolve(cwd, parsed.file), 'utf8');
  } catch (error) {
    err(`verify-export: cannot read ${parsed.file}: ${reason(error)}`);
    return 2;
  }
  let file: unknown;
  try {
    // A byte-order mark (some editors add one) is no part of the JSON.
    file = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    err(`verify-export: ${parsed.file} is not JSON: ${reason(error)}`);
    return 2;
  }

  const result = verifyEvidence(file, trustedPublicKey ? { trustedPublicKey } : {});
  if (!result.ok) {
    out('NOT VALID:');
    for (const problem of result.problems) out(`  ${problem.message}`);
    return 1;
  }
  const { session } = result;
  const reference = session.externalReference ? `, reference ${session.externalReference}` : '';
  if (!trustedPublicKey) {
    out(
      `intact: ${result.count} records, chain head ${result.head}, signed by key ${result.keyId}`,
    );
    out(`session ${session.id} of ${session.agencyName}${reference}`);
    out(
      'NOT CHECKED: who signed it. Pass --key with the deployment’s public key ' +
        '(GET /api/v1/evidence/signing-keys); anyone can re-sign an edited file with a key of their own.',
    );
    return 3;
  }
  out(
    `valid: ${result.count} records, chain head ${result.head}, signed by key ${result.keyId}, the trusted key`,
  );
  out(`session ${session.id} of ${session.agencyName}${reference}`);
  return 0;
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  process.exitCode = verifyExportCli(process.argv.slice(2));
}
