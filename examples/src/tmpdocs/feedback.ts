import { Type } from '@sinclair/typebox';
import { formatFeedback, formatIssue, toValidator, validateOutput, type ValidationIssue } from '@keel/reliability';

const Task = Type.Object({
  project_id: Type.String({ format: 'uuid' }),
  title: Type.String({ minLength: 1 }),
  priority: Type.Union([Type.Literal('low'), Type.Literal('high')]),
  amount: Type.Number({ minimum: 0, maximum: 100 }),
  code: Type.String({ pattern: '^[A-Z]{3}$' }),
  due_date: Type.String({ format: 'date-time' }),
  tags: Type.Array(Type.String()),
  owner: Type.Union([Type.String(), Type.Number()]),
}, { additionalProperties: false });

const v = toValidator(Task);
const r = await v.validate({ title: '', priority: 'urgent', amount: 'USD 50', code: 'ab', due_date: 'tomorrow', tags: 'x', owner: true, extra: 1 });
if (!r.ok) {
  for (const i of r.issues) console.log(i.kind.padEnd(10), '|', formatIssue(i));
  console.log('---- full');
  console.log(formatFeedback({ errorType: 'schema', issues: r.issues, retryHint: 'Amounts are plain numbers in USD.' }));
}
const r2 = await v.validate({ project_id: '5f0c6a2e-8d7b-4c1e-9a3f-2b6d8e4f1a90', title: 'x', priority: 'low', amount: 150, code: 'ABC', due_date: '2026-01-01T00:00:00Z', tags: [], owner: 'a' });
if (!r2.ok) for (const i of r2.issues) console.log(i.kind.padEnd(10), '|', formatIssue(i));
const other: ValidationIssue = { path: ['total'], kind: 'other', received: 12, message: 'total must equal the sum of the lines' };
console.log('other     |', formatIssue(other));
const p = await validateOutput('{"action": "refund", amount: 50}', v);
if (!p.ok) { console.log('---- parse'); console.log(formatFeedback({ errorType: 'parse', issues: p.failure.issues, parseErrorMessage: p.failure.message })); }
const refund = await validateOutput('Here is my decision:\n```json\n{ "action": "refund", "amount": "USD 50" }\n```', toValidator(Type.Object({action: Type.String(), amount: Type.Number()})));
console.log(JSON.stringify(refund.ok ? refund : { failure: refund.failure.message, issues: refund.failure.issues }));
const rep = await validateOutput("Sure! {'action': 'refund', 'amount': 50,}", toValidator(Type.Object({action: Type.String(), amount: Type.Number()})));
console.log(JSON.stringify(rep));
