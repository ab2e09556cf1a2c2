import { type Static, Type } from '@sinclair/typebox';
import { type GateVerdict, runGate, strictOutputRules, toValidator, validateOutput } from '@keel/reliability';

const Invoice = Type.Object({ total: Type.Number(), currency: Type.String({ minLength: 3, maxLength: 3 }) });
type Invoice = Static<typeof Invoice>;
const validator = toValidator(Invoice);

// Stands in for any model call you already make (an SDK, an HTTP request, a local model).
const replies = ['Sure: {"total": "12.50", "currency": "EUR"}', '{"total": 12.5, "currency": "EUR"}'];
async function complete(prompt: string, signal?: AbortSignal): Promise<string> {
  signal?.throwIfAborted();
  console.log(`--- prompt ---\n${prompt}`);
  return replies.shift() ?? '';
}

const prompt = 'Extract the invoice as JSON {"total": number, "currency": "ISO code"}: "Total due: 12,50 EUR"';

const result = await runGate<string, Invoice>({
  call: ({ feedback, signal }) =>
    complete(feedback ? `${prompt}\n\nYour previous reply:\n${feedback.previousOutput}\n\n${feedback.text}` : prompt, signal),
  validate: async (text): Promise<GateVerdict<Invoice>> => {
    const check = await validateOutput(text, validator);
    return check.ok ? { status: 'accept', value: check.value, rawOutput: text } : { status: 'invalid', failure: check.failure };
  },
  rules: strictOutputRules(), // retry validation failures with feedback (2 retries), stop on a stuck loop
  onEvent: (event) => console.log(`[${event.type}]`),
});

console.log(result.value, result.via, result.attempts.length); // { total: 12.5, currency: 'EUR' } model 2
