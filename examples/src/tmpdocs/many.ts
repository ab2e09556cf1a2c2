import { formatFeedback } from '@keel/reliability';
const issues = Array.from({ length: 27 }, (_, i) => ({ path: [`f${i}`], kind: 'missing' as const, message: 'x' }));
console.log(formatFeedback({ errorType: 'schema', issues }).split('\n').slice(-3).join('\n'));
console.log(formatFeedback({ errorType: 'schema', issues: issues.slice(0,1), subject: "The arguments of your call to 'create_task'" }));
