import SwaggerParser from '@apidevtools/swagger-parser';
import { contract, partnerScope, routeSecurity, type RouteSecurity } from '@locus/contract';
import openapiTS, { astToString } from 'openapi-typescript';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startAuthStack, type AuthStack } from '../auth/support';
import { contractRoutes } from '../support/contract-routes';

// Issue 20: the document a partner loads first (`/api/docs/json`) passes the tools partners feed
// it: swagger-parser's validation, `redocly lint` with its recommended rules, and openapi-typescript
// (whose types a partner's script is checked against, and then run with).

const run = promisify(execFile);
const here = import.meta.dirname;
const root = join(here, '..', '..');
const lintConfig = join(root, 'services', 'api', 'openapi-lint');
const redocly = join(root, 'tests', 'node_modules', '.bin', 'redocly');
const publicUrl = 'https://locus.county911.example.gov';

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  responses: Record<string, { $ref?: string }>;
}
interface Document {
  openapi: string;
  servers: { url: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string; scheme?: string }>;
    responses: Record<string, unknown>;
    schemas: Record<string, unknown>;
  };
}

type Answer<T> = { ok: true; value: T } | { ok: false; status: number; error: { error: string } };
interface PartnerScript {
  signIn(
    baseUrl: string,
    body: { email: string; password: string },
  ): Promise<Answer<{ token: string } | { challenge: string }>>;
  currentUser(baseUrl: string, token: string): Promise<Answer<unknown>>;
  describeUser(user: unknown): string;
  errorCode(error: { error: string }): string;
}

let stack: AuthStack;
let served: Document;
let work: string;

beforeAll(async () => {
  stack = await startAuthStack({ worker: false, env: { PUBLIC_URL: publicUrl } });
  served = (await (await fetch(`${stack.api.url}/api/docs/json`)).json()) as Document;
  work = mkdtempSync(join(tmpdir(), 'locus-openapi-'));
  writeFileSync(join(work, 'openapi.json'), JSON.stringify(served, null, 2));
});

afterAll(async () => {
  await stack?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

function operations(document: Document): [string, string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(
      ([method, operation]) => [path, method, operation] as [string, string, Operation],
    ),
  );
}

describe('the served OpenAPI document', () => {
  it('is valid for the version it declares (swagger-parser)', async () => {
    expect(served.openapi).toBe('3.1.0');
    // validate() dereferences in place: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(served) as never)).resolves.toBeTruthy();
  });

  it('passes `redocly lint` (recommended rules): no error, and only the warnings its config justifies', async () => {
    copyFileSync(join(lintConfig, 'redocly.yaml'), join(work, 'redocly.yaml'));
    copyFileSync(
      join(lintConfig, '.redocly.lint-ignore.yaml'),
      join(work, '.redocly.lint-ignore.yaml'),
    );
    const { stdout } = await run(redocly, ['lint', 'openapi.json', '--format=json'], {
      cwd: work,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((failure: { stdout?: string; stderr?: string }) => {
      throw new Error(
        `redocly lint failed:\n${failure.stdout?.slice(0, 4000)}\n${failure.stderr?.slice(0, 2000)}`,
      );
    });
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; severity: string; message: string }[];
    };
    const errors = report.problems.filter((problem) => problem.severity === 'error');
    expect(errors.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    const justified = [
      ...readFileSync(join(lintConfig, 'redocly.yaml'), 'utf8').matchAll(
        /^ {2}([a-z0-9.-]+): warn$/gm,
      ),
    ].map((match) => match[1]);
    const warned = new Set(report.problems.map((problem) => problem.ruleId));
    expect([...warned].filter((rule) => !justified.includes(rule))).toEqual([]);
  });

  it('names every operation from the contract, with tags, a summary and a description', () => {
    const names = contractRoutes(contract)
      .map(([name]) => name)
      .sort();
    const documented = operations(served)
      .map(([, , operation]) => operation.operationId)
      .sort();
    expect(documented).toEqual(names);
    for (const [path, method, operation] of operations(served)) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(operation.tags, where).toEqual([operation.operationId?.split('.')[0]]);
      expect(operation.summary?.length, `${where} summary`).toBeGreaterThan(5);
      expect(operation.description?.length, `${where} description`).toBeGreaterThan(5);
    }
  });

  it('declares the security the API enforces on each operation', () => {
    expect(served.components.securitySchemes.sessionToken).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(served.security).toEqual([{ sessionToken: [] }]);
    const expected: Record<RouteSecurity, (scope?: string) => Record<string, string[]>[]> = {
      session: () => [{ sessionToken: [] }],
      public: () => [],
      callerLink: () => [{ callerLinkToken: [] }],
      partner: (scope) =>
        [{ partnerKey: [scope ?? ''] }, { partnerOAuth: [scope ?? ''] }] as Record<
          string,
          string[]
        >[],
    };
    const byName = new Map(
      operations(served).map(([, , operation]) => [operation.operationId, operation]),
    );
    for (const [name, route] of contractRoutes(contract)) {
      expect(byName.get(name)?.security, name).toEqual(
        expected[routeSecurity(route)](partnerScope(route)),
      );
    }
    expect(byName.get('partner.callLists')?.security).toEqual([
      { partnerKey: ['sessions:read'] },
      { partnerOAuth: ['sessions:read'] },
    ]);
    expect(byName.get('auth.signIn')?.security).toEqual([]);
    expect(byName.get('tracking.startStream')?.security).toEqual([{ sessionToken: [] }]);
  });

  it('points `servers` at the configured public URL and keeps the paths of SPEC.md exactly', () => {
    expect(served.servers).toEqual([expect.objectContaining({ url: publicUrl })]);
    expect(Object.keys(served.paths)).toEqual(
      expect.arrayContaining(['/api/v1/users/', '/api/v1/auth/users/']),
    );
  });

  it('documents the error shape once and refers to it', () => {
    expect(served.components.schemas.Error).toBeDefined();
    const unauthorized = served.paths['/api/v1/location/start-stream']?.post?.responses['401'];
    expect(unauthorized).toEqual({ $ref: '#/components/responses/Unauthorized' });
    // The whole enum of codes appears once, not once per response.
    expect(JSON.stringify(served).split('"mfa-challenge-expired"').length - 1).toBe(1);
  });
});

describe('a partner client generated with openapi-typescript', () => {
  it('type-checks a partner script against the generated types, and the types catch its mistakes', async () => {
    const types = astToString(await openapiTS(structuredClone(served) as never));
    writeFileSync(join(work, 'locus-api.d.ts'), types);
    copyFileSync(join(here, 'partner', 'partner-client.ts'), join(work, 'partner-client.ts'));
    const program = ts.createProgram([join(work, 'partner-client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: false,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });

  it('runs the partner script against the API: sign in, read the signed-in user, read an error', async () => {
    // Imported by a computed path: the repository's type-check skips the script (its types are
    // generated by the test above), so its answers are typed here by what the test reads.
    const partner = (await import(join(here, 'partner', 'partner-client.ts'))) as PartnerScript;
    const refused = await partner.signIn(stack.api.url, {
      email: 'owner@locus.test',
      password: 'wrong password',
    });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(partner.errorCode(refused.error)).toBe('invalid-credentials');
    const signedIn = await partner.signIn(stack.api.url, {
      email: 'owner@locus.test',
      password: DEMO_PASSWORD,
    });
    if (!signedIn.ok || !('token' in signedIn.value))
      throw new Error(`sign-in failed: ${JSON.stringify(signedIn)}`);
    const user = await partner.currentUser(stack.api.url, signedIn.value.token);
    if (!user.ok) throw new Error(`current-user failed: ${JSON.stringify(user)}`);
    expect(partner.describeUser(user.value)).toContain('<owner@locus.test>');
  });
});
