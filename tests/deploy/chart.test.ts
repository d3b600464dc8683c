import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartDir, envFileNames, helmRenderer, repoRoot } from './support';

// Issue 18, deployment: deploy/helm/locus renders (with Helm's own template engine: Go's
// text/template and Sprig, see helm-render/main.go and deploy/README.md) and every manifest it
// renders is valid against the Kubernetes API schemas (kubernetes-models: the Kubernetes
// OpenAPI definitions compiled to validators; unknown fields are not refused, as by the API
// server's non-strict validation), for several sets of values.

const run = promisify(execFile);

/** The Kubernetes kinds the chart may render, each with its schema-checked model. */
const models: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1/Job': Job,
  'networking.k8s.io/v1/Ingress': Ingress,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
};

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // The manifests are checked against their schemas below; the assertions read them freely.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec: any;
}

/** The values every install must give: the Secrets the chart reads and Redis's address. */
const required = {
  secrets: { existingSecret: 'locus-secrets' },
  database: { existingSecret: 'locus-database' },
  redis: { url: 'redis://redis.locus.svc:6379' },
};

const scenarios: Record<string, object> = {
  defaults: required,
  'fixed replicas, no ingress TLS, Redis URL from a Secret, image digest, no chart ServiceAccount':
    {
      ...required,
      redis: { existingSecret: 'locus-redis', existingSecretKey: 'url' },
      image: { digest: `sha256:${'ab'.repeat(32)}` },
      serviceAccount: { create: false, name: 'locus-runner' },
      api: { autoscaling: { enabled: false }, replicas: 3 },
      worker: {
        autoscaling: { enabled: false },
        podDisruptionBudget: { enabled: false },
        metricsPort: '',
      },
      ingress: { tlsSecretName: '', annotations: { 'example.org/team': 'dispatch' } },
      migrations: { enabled: false },
    },
};

let renderer: string;
let scratch: string;
const envExample = readFileSync(join(repoRoot, '.env.example'), 'utf8');

async function render(values: object): Promise<{ stdout: string; stderr: string }> {
  const file = join(scratch, `values-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, JSON.stringify(values)); // JSON is YAML
  return run(renderer, ['-name', 'locus', '-namespace', 'dispatch', '-f', file, chartDir]);
}

function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((doc) => {
      expect(doc.errors, String(doc.errors[0])).toEqual([]);
      return doc.toJS() as Manifest | null;
    })
    .filter((doc): doc is Manifest => doc !== null);
}

beforeAll(async () => {
  renderer = await helmRenderer();
  scratch = mkdtempSync(join(tmpdir(), 'locus-chart-'));
}, 600_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.each(Object.entries(scenarios))('the Helm chart with %s', (_name, values) => {
  let manifests: Manifest[];
  const find = (kind: string, name: string) =>
    manifests.find((each) => each.kind === kind && each.metadata.name === name);

  beforeAll(async () => {
    const { stdout } = await render(values);
    manifests = parseManifests(stdout);
  });

  it('renders only kinds with a schema, each valid against it', () => {
    expect(manifests.length).toBeGreaterThanOrEqual(5);
    for (const manifest of manifests) {
      const Model = models[`${manifest.apiVersion}/${manifest.kind}`];
      expect(Model, `${manifest.apiVersion} ${manifest.kind}`).toBeDefined();
      expect(() => new Model!(manifest as never).validate(), manifest.metadata.name).not.toThrow();
    }
    const names = manifests.map((each) => `${each.kind}/${each.metadata.name}`);
    expect(new Set(names).size, 'no two manifests share a kind and name').toBe(names.length);
  });

  it('runs the API with readiness on /api/v1/health, liveness, requests and the Secrets', () => {
    const api = find('Deployment', 'locus-api');
    expect(api).toBeDefined();
    const pod = api!.spec.template.spec;
    const [container] = pod.containers;
    expect(container.command).toEqual(['node', '--import', 'tsx', 'services/api/src/main.ts']);
    expect(existsSync(join(repoRoot, container.command[3]))).toBe(true);
    expect(container.readinessProbe.httpGet).toEqual({ path: '/api/v1/health', port: 'http' });
    expect(container.livenessProbe.httpGet.path).toBe('/api/v1/health/live');
    expect(container.resources.requests.cpu).toBeDefined();
    expect(container.resources.requests.memory).toBeDefined();
    expect(container.ports).toContainEqual(
      expect.objectContaining({ name: 'http', containerPort: 3000 }),
    );
    expect(container.envFrom).toEqual([{ secretRef: { name: 'locus-secrets' } }]);
    const env = new Map<string, { value?: string; valueFrom?: unknown }>(
      container.env.map((each: { name: string }) => [each.name, each]),
    );
    expect(env.get('DATABASE_URL')?.valueFrom).toEqual({
      secretKeyRef: { name: 'locus-database', key: 'DATABASE_URL' },
    });
    expect(env.get('NODE_ENV')?.value).toBe('production');
    // Every variable the chart sets is one Locus reads (listed in .env.example).
    const documented = new Set(envFileNames(envExample));
    for (const name of env.keys()) expect(documented, name).toContain(name);
    // Hardened: not root, nothing written to the image, no Kubernetes API token.
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(api!.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
  });

  it('runs the worker from the same image, with requests and the Secrets', () => {
    const api = find('Deployment', 'locus-api')!;
    const worker = find('Deployment', 'locus-worker');
    expect(worker).toBeDefined();
    const [container] = worker!.spec.template.spec.containers;
    expect(container.image).toBe(api.spec.template.spec.containers[0].image);
    expect(container.command).toEqual(['node', '--import', 'tsx', 'services/worker/src/main.ts']);
    expect(existsSync(join(repoRoot, container.command[3]))).toBe(true);
    expect(container.resources.requests.cpu).toBeDefined();
    expect(container.envFrom).toEqual([{ secretRef: { name: 'locus-secrets' } }]);
    const configured = (values as { worker?: { metricsPort?: number | '' } }).worker?.metricsPort;
    const metricsPort = configured ?? 9464; // values.yaml's default
    const env = container.env as { name: string; value?: string }[];
    const documented = new Set(envFileNames(envExample));
    for (const { name } of env) expect(documented, name).toContain(name);
    if (metricsPort) {
      expect(container.ports).toEqual([
        { name: 'metrics', containerPort: metricsPort, protocol: 'TCP' },
      ]);
      expect(env).toContainEqual({ name: 'WORKER_METRICS_PORT', value: String(metricsPort) });
    } else {
      expect(container.ports).toBeUndefined();
      expect(env.map((each) => each.name)).not.toContain('WORKER_METRICS_PORT');
    }
  });

  it('selects the pods it means: Service, PodDisruptionBudgets, autoscalers, Ingress', () => {
    const podLabels = (deployment: string) =>
      find('Deployment', deployment)!.spec.template.metadata.labels as Record<string, string>;
    const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
      Object.keys(selector).length > 0 &&
      Object.entries(selector).every(([key, value]) => labels[key] === value);

    for (const deployment of manifests.filter((each) => each.kind === 'Deployment'))
      expect(
        matches(deployment.spec.selector.matchLabels, podLabels(deployment.metadata.name)),
      ).toBe(true);
    const service = find('Service', 'locus-api')!;
    expect(matches(service.spec.selector, podLabels('locus-api'))).toBe(true);
    expect(matches(service.spec.selector, podLabels('locus-worker'))).toBe(false);
    for (const pdb of manifests.filter((each) => each.kind === 'PodDisruptionBudget')) {
      const target = pdb.metadata.name;
      expect(matches(pdb.spec.selector.matchLabels, podLabels(target)), target).toBe(true);
    }
    for (const hpa of manifests.filter((each) => each.kind === 'HorizontalPodAutoscaler')) {
      const target = hpa.spec.scaleTargetRef;
      expect(find(target.kind, target.name), target.name).toBeDefined();
      expect(hpa.spec.metrics[0].resource.name).toBe('cpu');
      // An autoscaled Deployment leaves its replica count to the autoscaler.
      expect(find('Deployment', target.name)!.spec.replicas).toBeUndefined();
    }
    const ingress = find('Ingress', 'locus');
    if (ingress) {
      const backend = ingress.spec.rules[0].http.paths[0].backend.service;
      expect(backend.name).toBe(service.metadata.name);
      expect(service.spec.ports.map((port: { name: string }) => port.name)).toContain(
        backend.port.name,
      );
      // ingress-nginx cuts idle proxied connections after 60 s unless told otherwise.
      const annotations = ingress.metadata.annotations!;
      for (const name of ['proxy-read-timeout', 'proxy-send-timeout'])
        expect(Number(annotations[`nginx.ingress.kubernetes.io/${name}`])).toBeGreaterThanOrEqual(
          3600,
        );
    }
  });

  it('migrates in a Helm hook Job before the release, with the same image', () => {
    const job = find('Job', 'locus-migrate');
    const enabled = (values as { migrations?: { enabled: boolean } }).migrations?.enabled ?? true;
    if (!enabled) {
      expect(job).toBeUndefined();
      return;
    }
    expect(job).toBeDefined();
    expect(job!.metadata.annotations!['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    const [container] = job!.spec.template.spec.containers;
    expect(container.command).toEqual(['node', '--import', 'tsx', 'deploy/migrate.ts']);
    expect(existsSync(join(repoRoot, container.command[3]))).toBe(true);
    expect(container.image).toBe(
      find('Deployment', 'locus-api')!.spec.template.spec.containers[0].image,
    );
    expect(job!.spec.template.spec.restartPolicy).toBe('Never');
  });
});

describe('the Helm chart without its Secrets', () => {
  it('refuses to render, naming the missing value', async () => {
    await expect(render({})).rejects.toThrow(/database\.existingSecret/);
    await expect(render({ ...required, secrets: { existingSecret: '' } })).rejects.toThrow(
      /secrets\.existingSecret/,
    );
  });

  it('writes no secret into a manifest (every one comes from an existing Secret)', async () => {
    const { stdout } = await render(required);
    for (const manifest of parseManifests(stdout)) {
      expect(['Secret', 'ConfigMap']).not.toContain(manifest.kind);
      const containers = manifest.spec?.template?.spec?.containers ?? [];
      for (const container of containers)
        for (const each of container.env ?? []) {
          if (/(_KEY|_KEY_ID|SECRET|PASSWORD|TOKEN)$|^(DATABASE|SMTP)_URL$/.test(each.name))
            expect(each.value, each.name).toBeUndefined();
          // redis.url is for a Redis without a password; one with a password comes from a Secret.
          if (each.name === 'REDIS_URL' && each.value)
            expect(each.value).not.toMatch(/\/\/[^/@]*:[^/@]*@/);
        }
    }
  });
});
