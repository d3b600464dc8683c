export { startWorkers } from './worker';
export { parseWorkerConfig, type WorkerConfig } from './config';
export { processors, missingProcessors } from './registry';
