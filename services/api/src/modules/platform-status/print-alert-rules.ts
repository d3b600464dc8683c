import { StatusThresholdsJson } from '../../config';
import { alertRulesYaml } from './alert-rules';

/** `npm run alert-rules`: the rules for this environment's `STATUS_THRESHOLDS`, on stdout. */
export function printAlertRules(): void {
  const thresholds = StatusThresholdsJson.parse(process.env.STATUS_THRESHOLDS ?? '{}');
  process.stdout.write(alertRulesYaml(thresholds));
}
