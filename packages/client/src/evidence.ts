import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';

/**
 * The tamper-evident evidence file written beside a session's export (issue 15): every fix,
 * event, chat message and consent receipt as one hash chain, its head signed with Ed25519.
 * Anyone holding the file can check it offline (`npm run verify-export FILE`, or
 * `verifyEvidence` below) and is told which record was altered, removed or moved.
 *
 * Record i's hash is sha256(canonicalJson({ prev, kind, seq, data })), where `prev` is record
 * i−1's hash (the session's genesis hash for the first record). The signature covers the
 * session's details, the export time and the chain's genesis, head and count, so changing a
 * record and recomputing every hash after it still fails the signature.
 */
export const EVIDENCE_FORMAT = 'locus-evidence/1';

export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** `media`: a photo or recording of the session (issue 19), by its file's SHA-256. */
export type EvidenceRecordKind = 'fix' | 'event' | 'chat' | 'consent' | 'media';
export const EVIDENCE_RECORD_KINDS: readonly EvidenceRecordKind[] = [
  'fix',
  'event',
  'chat',
  'consent',
  'media',
];

export interface EvidenceRecordInput {
  kind: EvidenceRecordKind;
  /** The session's sequence number of the fix or event; null for what has none. */
  seq: number | null;
  data: JsonValue;
}

export interface EvidenceRecord extends EvidenceRecordInput {
  index: number;
  /** Hex SHA-256 of the record before it (the genesis hash for the first). */
  prev: string;
  /** Hex SHA-256 of canonicalJson({ prev, kind, seq, data }). */
  hash: string;
}

export interface EvidenceSession {
  id: string;
  teamId: string;
  agencyName: string;
  startedAt: string | null;
  endedAt: string | null;
  externalReference: string | null;
}

export interface EvidenceSignature {
  algorithm: 'Ed25519';
  keyId: string;
  /** Base64 of the SPKI DER public key. */
  publicKey: string;
  /** Base64 of the Ed25519 signature over signedPayload(file). */
  value: string;
}

export interface EvidenceFile {
  format: typeof EVIDENCE_FORMAT;
  session: EvidenceSession;
  /** ISO 8601. */
  exportedAt: string;
  records: EvidenceRecord[];
  chain: { algorithm: 'sha256'; genesis: string; head: string; count: number };
  signature: EvidenceSignature;
}

export type EvidenceProblem = {
  /** The record's position in the file's `records` (its `index` unless that was changed). */
  index: number | null;
  kind: EvidenceRecordKind | null;
  seq: number | null;
  problem:
    | 'altered'
    | 'broken-link'
    | 'bad-index'
    | 'head-mismatch'
    | 'count-mismatch'
    | 'bad-signature'
    | 'untrusted-key'
    | 'bad-format';
  /** A plain sentence naming the record, for whoever checks the file. */
  message: string;
};

export type EvidenceVerification =
  | { ok: true; count: number; head: string; keyId: string; session: EvidenceSession }
  | { ok: false; problems: EvidenceProblem[] };

// ---------------------------------------------------------------------------------------------
// Canonical JSON and the chain

function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object' && value !== null)
    return value.constructor?.name ? `a ${value.constructor.name}` : 'an object';
  return `a ${typeof value}`;
}

/**
 * RFC 8785 style canonical JSON: object keys sorted by UTF-16 code units, recursively; strings,
 * numbers, booleans and null as JSON.stringify writes them; no whitespace. Throws on what JSON
 * cannot hold (undefined, non-finite numbers, functions, bigints, Dates and other class
 * instances, sparse arrays, cycles) rather than silently writing something else.
 */
export function canonicalJson(value: JsonValue): string {
  const ancestors = new Set<object>();
  const write = (item: unknown, path: string): string => {
    if (item === null) return 'null';
    switch (typeof item) {
      case 'boolean':
        return item ? 'true' : 'false';
      case 'string':
        return JSON.stringify(item);
      case 'number':
        if (!Number.isFinite(item))
          throw new TypeError(`canonicalJson: ${path} is ${item}, which JSON cannot hold`);
        return JSON.stringify(item);
      case 'object':
        break;
      default:
        throw new TypeError(`canonicalJson: ${path} is ${describeValue(item)}, not a JSON value`);
    }
    if (ancestors.has(item)) throw new TypeError(`canonicalJson: ${path} refers to itself`);
    ancestors.add(item);
    let text: string;
    if (Array.isArray(item)) {
      const parts: string[] = [];
      for (let i = 0; i < item.length; i++) {
        if (!(i in item)) throw new TypeError(`canonicalJson: ${path}[${i}] is a hole`);
        parts.push(write(item[i], `${path}[${i}]`));
      }
      text = `[${parts.join(',')}]`;
    } else {
      const prototype: unknown = Object.getPrototypeOf(item);
      if (prototype !== Object.prototype && prototype !== null)
        throw new TypeError(
          `canonicalJson: ${path} is ${describeValue(item)}, not a plain object (convert it first)`,
        );
      const record = item as Record<string, unknown>;
      // The default sort compares UTF-16 code units, which is what RFC 8785 asks for.
      const keys = Object.keys(record).sort();
      text = `{${keys
        .map((key) => `${JSON.stringify(key)}:${write(record[key], `${path}.${key}`)}`)
        .join(',')}}`;
    }
    ancestors.delete(item);
    return text;
  };
  return write(value, '$');
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The hash the first record's `prev` names: sha256 of canonicalJson({ format, sessionId }). */
export function chainGenesis(sessionId: string): string {
  return sha256Hex(canonicalJson({ format: EVIDENCE_FORMAT, sessionId }));
}

function recordHash(prev: string, input: EvidenceRecordInput): string {
  return sha256Hex(canonicalJson({ prev, kind: input.kind, seq: input.seq, data: input.data }));
}

function checkInput(input: EvidenceRecordInput, position: number): void {
  if (!EVIDENCE_RECORD_KINDS.includes(input.kind))
    throw new TypeError(`evidence record ${position}: unknown kind ${JSON.stringify(input.kind)}`);
  if (input.seq !== null && !Number.isSafeInteger(input.seq))
    throw new TypeError(`evidence record ${position}: seq must be an integer or null`);
}

/** Links the records into one chain, in the order given. */
export function chainRecords(
  sessionId: string,
  inputs: EvidenceRecordInput[],
): { records: EvidenceRecord[]; genesis: string; head: string } {
  const genesis = chainGenesis(sessionId);
  let prev = genesis;
  const records = inputs.map((input, index): EvidenceRecord => {
    checkInput(input, index);
    const hash = recordHash(prev, input);
    const record = { index, kind: input.kind, seq: input.seq, data: input.data, prev, hash };
    prev = hash;
    return record;
  });
  return { records, genesis, head: prev };
}

/** The exact text the signature is over: the session, the export time and the chain. */
export function signedPayload(
  file: Pick<EvidenceFile, 'format' | 'session' | 'exportedAt' | 'chain'>,
): string {
  return canonicalJson({
    format: file.format,
    session: { ...file.session },
    exportedAt: file.exportedAt,
    chain: { ...file.chain },
  });
}

// ---------------------------------------------------------------------------------------------
// Keys and signing

/** First 16 hex characters of sha256 of the SPKI DER public key. */
export function publicKeyId(publicKeySpkiDer: Buffer): string {
  return createHash('sha256').update(publicKeySpkiDer).digest('hex').slice(0, 16);
}

const pemHeader = '-----BEGIN';

/** PEM as configured, even when an environment variable carries its line breaks as `\n`. */
function normalisedPem(text: string): string {
  return text.includes('\\n') ? text.replace(/\\n/g, '\n') : text;
}

function requireEd25519(key: KeyObject, what: string): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519')
    throw new TypeError(`${what} is a ${key.asymmetricKeyType ?? key.type} key, not Ed25519`);
  return key;
}

/** An Ed25519 private key from PKCS8 PEM, or from base64 of its PKCS8 DER. */
export function loadEd25519PrivateKey(pemOrBase64: string): KeyObject {
  const text = pemOrBase64.trim();
  const key = text.startsWith(pemHeader)
    ? createPrivateKey(normalisedPem(text))
    : createPrivateKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'pkcs8' });
  return requireEd25519(key, 'The evidence signing key');
}

/**
 * An Ed25519 public key from SPKI PEM, or from base64 of its SPKI DER (as an evidence file's
 * `signature.publicKey` holds it).
 */
export function loadEd25519PublicKey(pemOrBase64: string): KeyObject {
  const text = pemOrBase64.trim();
  const key = text.startsWith(pemHeader)
    ? createPublicKey(normalisedPem(text))
    : createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });
  return requireEd25519(key, 'The public key');
}

/** A new signing key pair: the private key as PKCS8 PEM, the public key as SPKI PEM. */
export function generateEvidenceKeyPem(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyPem: publicKey };
}

function spkiDer(key: KeyObject): Buffer {
  return key.export({ type: 'spki', format: 'der' });
}

/** Chains the records in the order given and signs the result with `privateKey` (Ed25519). */
export function buildEvidenceFile(args: {
  session: EvidenceSession;
  exportedAt: Date;
  records: EvidenceRecordInput[];
  privateKey: KeyObject;
}): EvidenceFile {
  const privateKey = requireEd25519(args.privateKey, 'The evidence signing key');
  const session: EvidenceSession = {
    id: args.session.id,
    teamId: args.session.teamId,
    agencyName: args.session.agencyName,
    startedAt: args.session.startedAt,
    endedAt: args.session.endedAt,
    externalReference: args.session.externalReference,
  };
  const { records, genesis, head } = chainRecords(session.id, args.records);
  const unsigned: Pick<EvidenceFile, 'format' | 'session' | 'exportedAt' | 'chain'> = {
    format: EVIDENCE_FORMAT,
    session,
    exportedAt: args.exportedAt.toISOString(),
    chain: { algorithm: 'sha256', genesis, head, count: records.length },
  };
  const publicKey = spkiDer(createPublicKey(privateKey));
  const value = sign(null, Buffer.from(signedPayload(unsigned), 'utf8'), privateKey);
  return {
    format: unsigned.format,
    session,
    exportedAt: unsigned.exportedAt,
    records,
    chain: unsigned.chain,
    signature: {
      algorithm: 'Ed25519',
      keyId: publicKeyId(publicKey),
      publicKey: publicKey.toString('base64'),
      value: value.toString('base64'),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Verification

const hexHash = /^[0-9a-f]{64}$/;
const sessionFields = [
  'id',
  'teamId',
  'agencyName',
  'startedAt',
  'endedAt',
  'externalReference',
] as const;
const recordFields = ['index', 'kind', 'seq', 'data', 'prev', 'hash'];

type Shaped = Omit<EvidenceFile, 'records'> & { records: unknown[] };

/** Text from the file, quoted and cut short, so that it cannot break a line of the report. */
function quoted(text: string): string {
  const cut = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  return JSON.stringify(cut);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStrictBase64(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    Buffer.from(value, 'base64').toString('base64') === value
  );
}

function formatProblem(message: string, at?: Partial<EvidenceProblem>): EvidenceProblem {
  return {
    index: at?.index ?? null,
    kind: at?.kind ?? null,
    seq: at?.seq ?? null,
    problem: 'bad-format',
    message,
  };
}

/** Fields a part of the file must not carry: whatever is not hashed or signed could be forged. */
function extraFields(value: Record<string, unknown>, allowed: readonly string[]): string[] {
  return Object.keys(value)
    .filter((key) => !allowed.includes(key))
    .map(quoted);
}

/** The file's outer shape (everything but the records' own fields); problems if it is wrong. */
function checkShape(file: unknown): EvidenceProblem[] | Shaped {
  if (!isObject(file))
    return [formatProblem('This is not an evidence file: it is not a JSON object.')];
  if (file.format !== EVIDENCE_FORMAT)
    return [
      formatProblem(
        typeof file.format === 'string'
          ? `This is not an evidence file this tool reads: its format is ${quoted(file.format)}, not "${EVIDENCE_FORMAT}".`
          : `This is not an evidence file: it has no "format": "${EVIDENCE_FORMAT}".`,
      ),
    ];
  const problems: string[] = [];
  const extra = extraFields(file, [
    'format',
    'session',
    'exportedAt',
    'records',
    'chain',
    'signature',
  ]);
  if (extra.length > 0)
    problems.push(`The file has fields that are not part of the format: ${extra.join(', ')}.`);

  const session = file.session;
  if (!isObject(session)) problems.push('The file has no session details.');
  else {
    for (const field of sessionFields) {
      const value = session[field];
      const nullable = field !== 'id' && field !== 'teamId' && field !== 'agencyName';
      if (!(typeof value === 'string' || (nullable && value === null)))
        problems.push(`The session's "${field}" is missing or not text.`);
    }
    if (session.id === '') problems.push("The session's id is empty.");
    const extraSession = extraFields(session, sessionFields);
    if (extraSession.length > 0)
      problems.push(
        `The session has fields that are not part of the format: ${extraSession.join(', ')}.`,
      );
  }

  if (typeof file.exportedAt !== 'string' || Number.isNaN(Date.parse(file.exportedAt)))
    problems.push('The export time ("exportedAt") is missing or not a date.');
  if (!Array.isArray(file.records)) problems.push('The file has no list of records.');

  const chain = file.chain;
  if (!isObject(chain)) problems.push('The file has no chain summary.');
  else {
    if (chain.algorithm !== 'sha256') problems.push(`The chain's algorithm is not "sha256".`);
    if (typeof chain.genesis !== 'string' || !hexHash.test(chain.genesis))
      problems.push("The chain's genesis is not a SHA-256 hash in hex.");
    if (typeof chain.head !== 'string' || !hexHash.test(chain.head))
      problems.push("The chain's head is not a SHA-256 hash in hex.");
    if (!Number.isSafeInteger(chain.count) || (chain.count as number) < 0)
      problems.push("The chain's count is not a whole number.");
    const extraChain = extraFields(chain, ['algorithm', 'genesis', 'head', 'count']);
    if (extraChain.length > 0)
      problems.push(
        `The chain has fields that are not part of the format: ${extraChain.join(', ')}.`,
      );
  }

  const signature = file.signature;
  if (!isObject(signature)) problems.push('The file is not signed: it has no signature.');
  else {
    if (signature.algorithm !== 'Ed25519')
      problems.push('The signature\'s algorithm is not "Ed25519".');
    if (typeof signature.keyId !== 'string' || !/^[0-9a-f]{16}$/.test(signature.keyId))
      problems.push("The signature's key id is not 16 hex characters.");
    if (!isStrictBase64(signature.publicKey))
      problems.push("The signature's public key is not base64.");
    if (!isStrictBase64(signature.value)) problems.push("The signature's value is not base64.");
    const extraSignature = extraFields(signature, ['algorithm', 'keyId', 'publicKey', 'value']);
    if (extraSignature.length > 0)
      problems.push(
        `The signature has fields that are not part of the format: ${extraSignature.join(', ')}.`,
      );
  }

  return problems.length > 0
    ? problems.map((message) => formatProblem(message))
    : (file as unknown as Shaped);
}

/** "Record 5 (fix, seq 7)": the position in the file, what the record says it is. */
function recordLabel(position: number, kind: unknown, seq: unknown): string {
  const kindText = EVIDENCE_RECORD_KINDS.includes(kind as EvidenceRecordKind)
    ? (kind as string)
    : 'unknown kind';
  return typeof seq === 'number' && Number.isSafeInteger(seq)
    ? `Record ${position} (${kindText}, seq ${seq})`
    : `Record ${position} (${kindText})`;
}

function shortHash(hash: string): string {
  return `${hash.slice(0, 12)}…`;
}

type RecordCheck =
  | { ok: true; record: EvidenceRecord }
  | { ok: false; problems: EvidenceProblem[]; hash: string | null; index: number | null };

function checkRecordShape(value: unknown, position: number): RecordCheck {
  const fields = isObject(value) ? value : {};
  const kind = EVIDENCE_RECORD_KINDS.includes(fields.kind as EvidenceRecordKind)
    ? (fields.kind as EvidenceRecordKind)
    : null;
  const seq =
    typeof fields.seq === 'number' && Number.isSafeInteger(fields.seq) ? fields.seq : null;
  const label = recordLabel(position, fields.kind, fields.seq);
  const at = { index: position, kind, seq };
  if (!isObject(value))
    return {
      ok: false,
      problems: [formatProblem(`Record ${position} is not a JSON object.`, at)],
      hash: null,
      index: null,
    };
  const wrong: string[] = [];
  if (!Number.isSafeInteger(value.index)) wrong.push('its index is not a whole number');
  if (kind === null) wrong.push(`its kind is not one of ${EVIDENCE_RECORD_KINDS.join(', ')}`);
  if (value.seq !== null && seq === null) wrong.push('its seq is neither a whole number nor null');
  if (!('data' in value)) wrong.push('it has no data');
  if (typeof value.prev !== 'string' || !hexHash.test(value.prev))
    wrong.push('its "prev" is not a SHA-256 hash in hex');
  if (typeof value.hash !== 'string' || !hexHash.test(value.hash))
    wrong.push('its "hash" is not a SHA-256 hash in hex');
  const extra = extraFields(value, recordFields);
  if (extra.length > 0)
    wrong.push(`it has fields that are not part of the format (${extra.join(', ')})`);
  if (wrong.length > 0)
    return {
      ok: false,
      problems: [formatProblem(`${label} is malformed: ${wrong.join('; ')}.`, at)],
      hash: typeof value.hash === 'string' ? value.hash : null,
      index: Number.isSafeInteger(value.index) ? (value.index as number) : null,
    };
  return { ok: true, record: value as unknown as EvidenceRecord };
}

function checkRecords(
  records: unknown[],
  genesis: string,
): { problems: EvidenceProblem[]; lastHash: string | null } {
  const problems: EvidenceProblem[] = [];
  let previousHash: string | null = genesis;
  let previousIndex: number | null = null;
  records.forEach((value, position) => {
    const checked = checkRecordShape(value, position);
    if (!checked.ok) {
      problems.push(...checked.problems);
      previousHash = checked.hash;
      previousIndex = checked.index;
      return;
    }
    const record = checked.record;
    const label = recordLabel(position, record.kind, record.seq);
    const at = { index: position, kind: record.kind, seq: record.seq };
    let computed: string | null;
    try {
      computed = recordHash(record.prev, record);
    } catch {
      computed = null;
      problems.push(
        formatProblem(
          `${label} cannot be read: its data is not plain JSON or nests too deeply.`,
          at,
        ),
      );
    }
    // Within a record: altered first, then how it sits among the others.
    if (computed !== null && computed !== record.hash)
      problems.push({
        ...at,
        problem: 'altered',
        message: `${label} was altered: its content does not match its hash.`,
      });
    const expectedIndex: number | null =
      position === 0 ? 0 : previousIndex === null ? position : previousIndex + 1;
    // Compared with the record before it, so one record removed is reported once, not for
    // every record after it.
    if (record.index !== expectedIndex)
      problems.push({
        ...at,
        problem: 'bad-index',
        message:
          position === 0
            ? `${label} carries index ${record.index} where the first record carries 0: a record before it was removed, inserted or reordered.`
            : `${label} carries index ${record.index} but follows a record with index ${previousIndex}: a record before it was removed, inserted or reordered.`,
      });
    if (previousHash !== null && record.prev !== previousHash)
      problems.push({
        ...at,
        problem: 'broken-link',
        message:
          position === 0
            ? `${label} does not follow the start of this session's chain: a record before it was removed, inserted or reordered, or the session id was changed.`
            : `${label} does not follow the record before it: a record before it was removed, inserted or reordered.`,
      });
    previousHash = record.hash;
    previousIndex = record.index;
  });
  // The hash the head must equal; null when the last record is too malformed to have one.
  return { problems, lastHash: previousHash };
}

function checkSignature(
  file: Shaped,
  chainConsistent: boolean,
  trusted: KeyObject | null,
): EvidenceProblem[] {
  const problems: EvidenceProblem[] = [];
  const signature = file.signature;
  const signatureProblem = (
    message: string,
    problem: EvidenceProblem['problem'] = 'bad-signature',
  ): EvidenceProblem => ({ index: null, kind: null, seq: null, problem, message });
  let publicKey: KeyObject;
  try {
    publicKey = loadEd25519PublicKey(signature.publicKey);
  } catch {
    return [signatureProblem("The signature's public key is not an Ed25519 public key.")];
  }
  const der = spkiDer(publicKey);
  const keyId = publicKeyId(der);
  if (signature.keyId !== keyId)
    problems.push(
      signatureProblem(
        `The signature names key ${signature.keyId}, but the public key in the file is key ${keyId}.`,
      ),
    );
  const valid = verify(
    null,
    Buffer.from(signedPayload(file), 'utf8'),
    publicKey,
    Buffer.from(signature.value, 'base64'),
  );
  if (!valid)
    problems.push(
      signatureProblem(
        chainConsistent
          ? 'The signature does not match: the chain was changed after it was signed (records edited and their hashes recomputed), or the session details or export time were edited.'
          : 'The signature does not match: the chain, the session details or the export time were changed after the file was signed.',
      ),
    );
  if (trusted) {
    const trustedDer = spkiDer(trusted);
    if (!trustedDer.equals(der))
      problems.push(
        signatureProblem(
          `The file was signed by key ${keyId}, not by the trusted key ${publicKeyId(trustedDer)}.`,
          'untrusted-key',
        ),
      );
  }
  return problems;
}

function trustedKeyOf(key: KeyObject | string | undefined): KeyObject | null {
  if (key === undefined) return null;
  if (typeof key === 'string') return loadEd25519PublicKey(key);
  return requireEd25519(key.type === 'private' ? createPublicKey(key) : key, 'The trusted key');
}

/**
 * Checks an evidence file as parsed from JSON (any value: it never throws on a hostile file).
 * Every problem is listed, earliest record first. With `trustedPublicKey` (a KeyObject, SPKI
 * PEM, or base64 SPKI DER) the file must also be signed by that key; an unusable trusted key
 * is the caller's mistake and throws.
 */
export function verifyEvidence(
  file: unknown,
  options: { trustedPublicKey?: KeyObject | string } = {},
): EvidenceVerification {
  const trusted = trustedKeyOf(options.trustedPublicKey);
  try {
    const shaped = checkShape(file);
    if (Array.isArray(shaped)) return { ok: false, problems: shaped };

    const genesis = chainGenesis(shaped.session.id);
    const { problems, lastHash } = checkRecords(shaped.records, genesis);

    if (shaped.chain.genesis !== genesis)
      problems.push({
        index: null,
        kind: null,
        seq: null,
        problem: 'head-mismatch',
        message: `The chain's start (${shortHash(shaped.chain.genesis)}) is not the one for session ${quoted(shaped.session.id)} (${shortHash(genesis)}): the session id or the chain was changed.`,
      });
    if (lastHash !== null && shaped.chain.head !== lastHash)
      problems.push({
        index: null,
        kind: null,
        seq: null,
        problem: 'head-mismatch',
        message:
          shaped.records.length === 0
            ? `The chain's head (${shortHash(shaped.chain.head)}) names records, but the file has none: records were removed.`
            : `The chain's head (${shortHash(shaped.chain.head)}) is not the hash of the last record (${shortHash(lastHash)}): records were removed or added at the end.`,
      });
    if (shaped.chain.count !== shaped.records.length)
      problems.push({
        index: null,
        kind: null,
        seq: null,
        problem: 'count-mismatch',
        message: `The chain says it holds ${shaped.chain.count} records, but the file has ${shaped.records.length}: records were removed or added.`,
      });

    // A chain consistent in itself but not as signed was re-chained after an edit.
    problems.push(...checkSignature(shaped, problems.length === 0, trusted));
    if (problems.length > 0) return { ok: false, problems };
    return {
      ok: true,
      count: shaped.records.length,
      head: shaped.chain.head,
      keyId: shaped.signature.keyId,
      session: shaped.session,
    };
  } catch (error) {
    // Whatever the checks above did not foresee (a value nested deeper than the stack).
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      problems: [formatProblem(`The file could not be checked: ${reason}.`)],
    };
  }
}
