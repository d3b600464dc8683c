// The floor: the least a Redis-fanned websocket relay can do. A caller's frame is published,
// unparsed, to its session's channel; the instance holding that session's dispatcher writes
// the same bytes to it. No validation, no sequence numbers, no acks, no persistence.
import { Redis } from 'ioredis';
import { WebSocketServer, type WebSocket } from 'ws';
import { realtimePaths } from '@locus/contract';
import { healthOnlyServer, relayEnv, stopOnSignal } from './env';

const { port, redisUrl, prefix } = relayEnv();
const publisher = new Redis(redisUrl);
// A connection in subscriber mode can do nothing else, hence two.
const subscriber = new Redis(redisUrl);
const dispatchersByChannel = new Map<string, Set<WebSocket>>();

subscriber.on('messageBuffer', (channel: Buffer, message: Buffer) => {
  for (const ws of dispatchersByChannel.get(channel.toString()) ?? []) {
    ws.send(message, { binary: false });
  }
});

async function addDispatcher(ws: WebSocket, channel: string, sessionId: string): Promise<void> {
  let local = dispatchersByChannel.get(channel);
  if (!local) dispatchersByChannel.set(channel, (local = new Set()));
  local.add(ws);
  ws.on('close', () => {
    local.delete(ws);
    if (local.size === 0 && dispatchersByChannel.get(channel) === local) {
      dispatchersByChannel.delete(channel);
      void subscriber.unsubscribe(channel);
    }
  });
  // Subscribing once more is harmless; `joined` must not go out before Redis confirms.
  await subscriber.subscribe(channel);
  ws.send(JSON.stringify({ event: 'joined', data: { sessionId, replayed: 0 } }));
}

const server = healthOnlyServer();
const sockets = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 });
server.on('upgrade', (request, socket, head) => {
  const url = new URL(request.url ?? '/', 'http://relay');
  const sessionId = url.searchParams.get('session');
  const role =
    url.pathname === realtimePaths.dispatcher
      ? 'dispatcher'
      : url.pathname === realtimePaths.caller
        ? 'caller'
        : null;
  if (!sessionId || !role) {
    socket.destroy();
    return;
  }
  const channel = `${prefix}session:${sessionId}`;
  sockets.handleUpgrade(request, socket, head, (ws) => {
    if (role === 'dispatcher') {
      addDispatcher(ws, channel, sessionId).catch(() => ws.close(1011));
    } else {
      ws.on('message', (data: Buffer) => void publisher.publish(channel, data));
    }
  });
});

server.listen(port, '127.0.0.1');
stopOnSignal(async () => {
  sockets.clients.forEach((ws) => ws.terminate());
  server.close();
  await Promise.all([publisher.quit(), subscriber.quit()]);
});
