// What a typical team ships: Socket.IO with the Redis adapter, one room per session. The
// caller emits `fix`; the server broadcasts it to the session's room, which the adapter
// carries through Redis to whichever instance holds the dispatcher.
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { healthOnlyServer, relayEnv, stopOnSignal } from './env';

const { port, redisUrl, prefix } = relayEnv();
const publisher = new Redis(redisUrl);
const subscriber = publisher.duplicate();

const server = healthOnlyServer();
const io = new Server(server, { transports: ['websocket'], serveClient: false });
io.adapter(createAdapter(publisher, subscriber, { key: `${prefix}socket.io` }));

io.on('connection', (socket) => {
  const { role, session } = socket.handshake.query;
  if (typeof session !== 'string') {
    socket.disconnect(true);
    return;
  }
  const room = `session:${session}`;
  if (role === 'dispatcher') {
    void socket.join(room);
    socket.emit('joined', { sessionId: session, replayed: 0 });
  } else {
    socket.on('fix', (fix: unknown) => {
      io.to(room).emit('fix', fix);
    });
  }
});

server.listen(port, '127.0.0.1');
stopOnSignal(async () => {
  await io.close();
  await Promise.all([publisher.quit(), subscriber.quit()]);
});
