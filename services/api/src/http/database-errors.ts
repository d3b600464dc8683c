/**
 * What a failed database call means for the client. Every input is validated against the
 * contract first, so these are the safety net: a value the schemas let through but Postgres
 * refuses is still the client's to fix (400, never 500), and a database that cannot be reached
 * is a 503 with `Retry-After`, so that partners and the console retry instead of giving up.
 */
export type DatabaseFailure = 'invalid-value' | 'unavailable';

/** SQLSTATE classes: 22 data exception; 08 connection; 57P0x shutting down; 53 out of resources. */
function fromSqlState(code: string): DatabaseFailure | undefined {
  if (code.startsWith('22')) return 'invalid-value';
  if (code.startsWith('08') || code.startsWith('53') || /^57P0[1-3]$/.test(code))
    return 'unavailable';
  return undefined;
}

// node-postgres and Node's own socket errors when the server is down or cut off.
const unreachable = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
];
const unreachableMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection terminated due to connection timeout',
];

export function classifyDatabaseError(error: unknown): DatabaseFailure | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (unreachable.includes(code)) return 'unavailable';
    if (/^[0-9A-Z]{5}$/.test(code)) {
      const failure = fromSqlState(code);
      if (failure) return failure;
    }
  }
  if (typeof message === 'string' && unreachableMessages.some((text) => message.includes(text)))
    return 'unavailable';
  // AggregateError (Node tries IPv4 and IPv6) carries the socket errors inside.
  const inner = (error as { errors?: unknown }).errors;
  if (Array.isArray(inner)) {
    for (const each of inner)
      if (classifyDatabaseError(each) === 'unavailable') return 'unavailable';
  }
  return undefined;
}
