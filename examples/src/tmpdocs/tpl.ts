import { Type } from '@sinclair/typebox';
import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { type FeedbackTemplate, formatPath, quote } from '@keel/reliability';

const terse: FeedbackTemplate = ({ errorType, issues, parseErrorMessage, attempt, retryHint }) => {
  const lines =
    errorType === 'parse'
      ? [`Attempt ${attempt} was not valid JSON (parser said ${quote(parseErrorMessage ?? '')}).`]
      : [`Attempt ${attempt} broke the schema:`, ...issues.map((issue) => `* ${quote(formatPath(issue.path))} (${issue.kind}): ${quote(issue.message)}`)];
  if (retryHint) lines.push(retryHint);
  lines.push('Answer with the JSON object only.');
  return lines.join('\n');
};

const agent = Agent.create({ provider: scriptedModel(['{"amount": "USD 50"}', '{"amount": 50}']), model: 'scripted-demo' })
  .outputSchema(Type.Object({ amount: Type.Number() }), { feedbackTemplate: terse, retryHint: 'Amounts are plain numbers in USD.' })
  .on('reliability.retry', (event) => console.log(event.feedback))
  .build();

await agent.run('Refund?');
