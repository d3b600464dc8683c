export { startWorkers } from './worker';
export { WorkerConfig, parseWorkerConfig } from './config';
export { processors, missingProcessors } from './registry';
