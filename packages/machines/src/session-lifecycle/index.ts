export * from './events';
export * from './machine';
export * from './run';
