import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { repoRoot } from '../../../infra/src/paths';
import { area } from './fleet';

/**
 * The floor for the Overwatch screen: one static page with plain Leaflet (the web package's own
 * copy, the version Locus ships) on the same blank tile, drawing every phone as a circle marker
 * and its trail on Leaflet's canvas renderer, updated on each fix as it arrives. The fixes come
 * through a WebSocket relay in the bench process: phones connect to `/phone?id=i` and send the
 * frames they send Locus; each fix is acked to its phone and passed to every `/watch` socket.
 */
const leafletDir = join(repoRoot, 'web', 'node_modules', 'leaflet', 'dist');

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Reference watch</title>
<link rel="stylesheet" href="/leaflet.css">
<style>html, body, #map { margin: 0; height: 100%; }</style>
</head>
<body>
<div id="map"></div>
<script src="/leaflet.js"></script>
<script>
const map = L.map('map', { preferCanvas: true });
map.fitBounds([[${area.south}, ${area.west}], [${area.north}, ${area.east}]], { padding: [48, 48], maxZoom: 15, animate: false });
L.tileLayer('/blank.png').addTo(map);
const phones = new Map();
const socket = new WebSocket('ws://' + location.host + '/watch');
socket.onmessage = (message) => {
  const fix = JSON.parse(message.data).data;
  const point = [fix.latitude, fix.longitude];
  const phone = phones.get(fix.id);
  if (!phone) {
    phones.set(fix.id, {
      trail: L.polyline([point], { color: '#2f9e44', weight: 2, opacity: 0.7, interactive: false }).addTo(map),
      dot: L.circleMarker(point, { radius: 8, color: '#fff', weight: 2, fillColor: '#2f9e44', fillOpacity: 1 }).addTo(map),
    });
    return;
  }
  phone.dot.setLatLng(point);
  phone.trail.addLatLng(point);
};
</script>
</body>
</html>
`;

export interface ReferenceRelay {
  url: string;
  /** ws:// URL of phone i's socket. */
  phoneUrl(index: number): string;
  stop(): Promise<void>;
}

export async function startReferenceRelay(): Promise<ReferenceRelay> {
  const files = new Map<string, { type: string; body: Buffer }>([
    ['/', { type: 'text/html; charset=utf-8', body: Buffer.from(page) }],
    [
      '/leaflet.js',
      { type: 'text/javascript', body: readFileSync(join(leafletDir, 'leaflet.js')) },
    ],
    ['/leaflet.css', { type: 'text/css', body: readFileSync(join(leafletDir, 'leaflet.css')) }],
    [
      '/blank.png',
      {
        type: 'image/png',
        body: readFileSync(join(repoRoot, 'web', 'public', 'map-tiles', 'blank.png')),
      },
    ],
  ]);
  const server = createServer((request, response) => {
    const file = files.get(request.url?.split('?')[0] ?? '');
    if (request.method !== 'GET' || !file) {
      response.writeHead(404, { 'content-length': 0 }).end();
      return;
    }
    response
      .writeHead(200, { 'content-type': file.type, 'content-length': file.body.length })
      .end(file.body);
  });
  const watchers = new Set<WebSocket>();
  const sockets = new WebSocketServer({ server });
  sockets.on('connection', (ws, request) => {
    const url = new URL(request.url ?? '/', 'http://relay');
    if (url.pathname === '/watch') {
      watchers.add(ws);
      ws.on('close', () => watchers.delete(ws));
      return;
    }
    const id = Number(url.searchParams.get('id'));
    ws.on('message', (raw) => {
      const frame = JSON.parse(String(raw)) as { event: string; data: Record<string, unknown> };
      if (frame.event !== 'fix') return;
      const out = JSON.stringify({ event: 'fix', data: { id, ...frame.data } });
      for (const watcher of watchers) watcher.send(out);
      ws.send(JSON.stringify({ event: 'ack', data: { outcome: 'stored' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    phoneUrl: (index) => `ws://127.0.0.1:${port}/phone?id=${index}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
