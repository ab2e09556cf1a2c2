import { Ajv } from 'ajv';
import { formatFeedback, toValidator, validateOutput } from '@keel/reliability';
import { compare, type Timing } from './measure';
import { RefundSchema } from './overhead';

const invalid = '{"action":"Refund","amount":"USD 50","note":"x"}';

/**
 * One failed attempt's validation work: Keel (extract, validate, normalise issues, write feedback)
 * against a bare `JSON.parse` + compiled ajv validate + `JSON.stringify(errors)` as raw feedback.
 */
export async function measureValidationOverhead(): Promise<{ keel: Timing; bare: Timing; ratio: number }> {
  const validator = toValidator(RefundSchema);
  const ajv = new Ajv({ allErrors: true });
  const validate = ajv.compile(RefundSchema);
  const timings = await compare(
    [
      {
        name: 'keel',
        run: async () => {
          const check = await validateOutput(invalid, validator);
          if (check.ok) throw new Error('expected a failure');
          return formatFeedback({ stage: 'schema-validate', issues: check.failure.issues });
        },
      },
      {
        name: 'bare',
        run: async () => {
          if (validate(JSON.parse(invalid))) throw new Error('expected a failure');
          return JSON.stringify(validate.errors);
        },
      },
    ],
    { rounds: 30, batch: 500, warmup: 2000 },
  );
  const keel = timings.get('keel') as Timing;
  const bare = timings.get('bare') as Timing;
  return { keel, bare, ratio: keel.medianUs / bare.medianUs };
}
