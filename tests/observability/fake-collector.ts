import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeTraceRequest } from './otlp-protobuf';

/** One span as an OTLP/HTTP collector received it, flattened. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
/** The part of OTLP's ExportTraceServiceRequest (JSON encoding) that the tests read. */
interface ExportTraceServiceRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: KeyValue[];
      }[];
    }[];
  }[];
}

function plain(value: AnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return value.boolValue ?? '';
}

function attributesOf(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, plain(value)]));
}

function body(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/**
 * A real OTLP/HTTP trace receiver speaking both encodings: `POST /v1/traces` with an
 * ExportTraceServiceRequest as JSON (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) or protobuf
 * (`http/protobuf`, the default), answered with an empty ExportTraceServiceResponse in the same
 * encoding. Anything else is refused as the spec says (404, 415). `requestsBy` counts each.
 */
export class FakeCollector {
  readonly spans: ReceivedSpan[] = [];
  requests = 0;
  readonly requestsBy = { json: 0, protobuf: 0 };

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeCollector> {
    const server = createServer();
    const collector = new FakeCollector(server);
    server.on('request', (request, response) => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const type = request.headers['content-type'] ?? '';
      const encoding = type.startsWith('application/json')
        ? 'json'
        : type.startsWith('application/x-protobuf')
          ? 'protobuf'
          : undefined;
      if (!encoding) {
        response.writeHead(415).end();
        return;
      }
      body(request).then(
        (bytes) => {
          collector.receive(
            encoding === 'json'
              ? (JSON.parse(bytes.toString('utf8')) as ExportTraceServiceRequest)
              : decodeTraceRequest(bytes),
          );
          collector.requestsBy[encoding] += 1;
          // An empty ExportTraceServiceResponse: `{}`, or zero bytes of protobuf.
          response
            .writeHead(200, { 'content-type': type.split(';')[0]! })
            .end(encoding === 'json' ? '{}' : '');
        },
        () => response.writeHead(400).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return collector;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private receive(request: ExportTraceServiceRequest): void {
    this.requests += 1;
    for (const resourceSpans of request.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
      for (const scope of resourceSpans.scopeSpans ?? [])
        for (const span of scope.spans ?? [])
          this.spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
          });
    }
  }

  /** Whether `span` descends from `ancestor` through spans the collector has. */
  descendsFrom(span: ReceivedSpan, ancestor: ReceivedSpan): boolean {
    const byId = new Map(this.spans.map((each) => [each.spanId, each]));
    for (let at = byId.get(span.parentSpanId); at; at = byId.get(at.parentSpanId))
      if (at.spanId === ancestor.spanId) return true;
    return span.parentSpanId === ancestor.spanId;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
