export * from './errors';
export * from './location';
export * from './realtime';
export * from './jobs';
export * from './router';
export * from './auth';
export * from './accounts';
