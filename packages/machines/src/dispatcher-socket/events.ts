/**
 * What the dispatcher console tells the connection machine. `SOCKET.*` come from the socket
 * the platform opened for it (see the `openSocket` action); `CONNECT` and `STOP` from the user.
 */
export type DispatcherSocketEvent =
  | { type: 'CONNECT' }
  | { type: 'SOCKET.OPEN' }
  | { type: 'SOCKET.CLOSE' }
  | { type: 'SOCKET.ERROR' }
  | { type: 'SOCKET.TIMEOUT' }
  | { type: 'STOP' };
