export * from './dispatcher-socket/machine';
export * from './dispatcher-socket/events';
export * from './dispatcher-socket/selectors';
