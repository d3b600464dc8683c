export { currentRequestId, requestIdFrom, withRequestId } from './request-id';
export {
  jobOrigin,
  jobOriginOptions,
  traceJob,
  type JobOrigin,
  type TracedJob,
} from './job-origin';
