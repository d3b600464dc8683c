export { buildApp } from './app';
export { ApiConfig, parseConfig } from './config';
export { openSession, type OpenedSession, type OpenSessionInput } from './modules/sessions/service';
export { openApiDocument } from './http/docs';
export { BatchWriter } from './modules/realtime/batch-writer';
export { ThreadedWriter, type RowWriter } from './modules/realtime/threaded-writer';
export { SignInLockout } from './modules/auth/lockout';
