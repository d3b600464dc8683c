/**
 * A decoder for the protobuf encoding of OTLP's ExportTraceServiceRequest
 * (opentelemetry/proto/collector/trace/v1), down to the fields the fake collector reads, into the
 * shape of the JSON encoding (ids as lowercase hex, as OTLP/JSON writes them). Written from the
 * .proto field numbers so that the collector checks what the SDK's default exporter
 * (`http/protobuf`) really sends, without a protobuf library.
 */
type Field = { number: number; wire: number; varint?: bigint; bytes?: Buffer; fixed?: Buffer };

function readVarint(buffer: Buffer, at: number): [bigint, number] {
  let value = 0n;
  let shift = 0n;
  for (;;) {
    const byte = buffer[at++];
    if (byte === undefined) throw new Error('protobuf: truncated varint');
    value |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [value, at];
    shift += 7n;
  }
}

function fields(buffer: Buffer): Field[] {
  const out: Field[] = [];
  let at = 0;
  while (at < buffer.length) {
    const [key, next] = readVarint(buffer, at);
    at = next;
    const number = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [varint, after] = readVarint(buffer, at);
      out.push({ number, wire, varint });
      at = after;
    } else if (wire === 2) {
      const [length, after] = readVarint(buffer, at);
      const end = after + Number(length);
      if (end > buffer.length) throw new Error('protobuf: truncated field');
      out.push({ number, wire, bytes: buffer.subarray(after, end) });
      at = end;
    } else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      out.push({ number, wire, fixed: buffer.subarray(at, at + size) });
      at += size;
    } else throw new Error(`protobuf: wire type ${wire} is not used by OTLP`);
  }
  return out;
}

const each = (list: Field[], number: number) =>
  list.filter((field) => field.number === number && field.bytes).map((field) => field.bytes!);
const first = (list: Field[], number: number) => each(list, number)[0];

function anyValue(buffer: Buffer) {
  const list = fields(buffer);
  for (const field of list) {
    if (field.number === 1 && field.bytes) return { stringValue: field.bytes.toString('utf8') };
    if (field.number === 2 && field.varint !== undefined) return { boolValue: field.varint !== 0n };
    if (field.number === 3 && field.varint !== undefined)
      return { intValue: BigInt.asIntN(64, field.varint).toString() };
    if (field.number === 4 && field.fixed) return { doubleValue: field.fixed.readDoubleLE(0) };
  }
  return {};
}

function keyValues(list: Field[], number: number) {
  return each(list, number).map((bytes) => {
    const kv = fields(bytes);
    const value = first(kv, 2);
    return {
      key: first(kv, 1)?.toString('utf8') ?? '',
      value: value ? anyValue(value) : {},
    };
  });
}

export function decodeTraceRequest(buffer: Buffer) {
  return {
    resourceSpans: each(fields(buffer), 1).map((resourceBytes) => {
      const resourceSpans = fields(resourceBytes);
      const resource = first(resourceSpans, 1);
      return {
        resource: { attributes: resource ? keyValues(fields(resource), 1) : [] },
        scopeSpans: each(resourceSpans, 2).map((scopeBytes) => ({
          spans: each(fields(scopeBytes), 2).map((spanBytes) => {
            const span = fields(spanBytes);
            const hex = (number: number) => first(span, number)?.toString('hex') ?? '';
            return {
              traceId: hex(1),
              spanId: hex(2),
              parentSpanId: hex(4),
              name: first(span, 5)?.toString('utf8') ?? '',
              kind: Number(span.find((field) => field.number === 6)?.varint ?? 0n),
              attributes: keyValues(span, 9),
            };
          }),
        })),
      };
    }),
  };
}
