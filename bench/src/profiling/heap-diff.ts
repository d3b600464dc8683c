// Which objects each idle connection keeps: compares two heap snapshots of the same instance (the
// memory step's, written when BENCH_HEAP_SNAPSHOT_DIR is set) by constructor, and prints the
// growth per connection, biggest first.
//   node --import tsx bench/src/profiling/heap-diff.ts before.heapsnapshot after.heapsnapshot 3000
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Self size and count per "type:name" (for objects, the name is the constructor). */
function tally(path: string): Map<string, { count: number; bytes: number }> {
  const heap = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const totals = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < heap.nodes.length; i += width) {
    const type = types[heap.nodes[i + typeAt] ?? 0] ?? '?';
    // Strings and code are named by their content: group them by type only.
    const name =
      type === 'object' || type === 'native' || type === 'closure'
        ? (heap.strings[heap.nodes[i + nameAt] ?? 0] ?? '?')
        : '';
    const key = `${type}${name ? `:${name}` : ''}`;
    const entry = totals.get(key) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += heap.nodes[i + sizeAt] ?? 0;
    totals.set(key, entry);
  }
  return totals;
}

const [beforePath, afterPath, connectionsArg] = process.argv.slice(2);
if (!beforePath || !afterPath || !connectionsArg) {
  console.error('usage: heap-diff.ts <before.heapsnapshot> <after.heapsnapshot> <connections>');
  process.exit(2);
}
const connections = Number(connectionsArg);
const before = tally(beforePath);
const after = tally(afterPath);
const rows = [...after.entries()]
  .map(([key, { count, bytes }]) => {
    const was = before.get(key) ?? { count: 0, bytes: 0 };
    return {
      key,
      perConnection: (count - was.count) / connections,
      bytesPerConnection: (bytes - was.bytes) / connections,
    };
  })
  .filter((row) => Math.abs(row.bytesPerConnection) >= 8)
  .sort((a, b) => b.bytesPerConnection - a.bytesPerConnection);
const total = rows.reduce((sum, row) => sum + row.bytesPerConnection, 0);
console.log(`growth per connection: ${(total / 1024).toFixed(2)} KiB (rows of at least 8 bytes)`);
console.log('bytes/conn  objects/conn  type:constructor');
for (const row of rows.slice(0, 40)) {
  console.log(
    `${row.bytesPerConnection.toFixed(0).padStart(10)}  ${row.perConnection.toFixed(2).padStart(12)}  ${row.key}`,
  );
}
