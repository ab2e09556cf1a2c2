import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, type ModelProvider, type ModelResponse, tool, type ToolGuard } from '../index';
import { scriptedModel } from '../testing/index';

/** A provider answering tool calls with the raw argument text the model wrote. */
function rawArgumentsModel(turns: readonly (readonly { id: string; name: string; text: string }[] | string)[]): ModelProvider & { calls: number } {
  let calls = 0;
  return {
    specificationVersion: 'v1',
    name: 'raw',
    get calls() {
      return calls;
    },
    async generate(): Promise<ModelResponse> {
      const turn = turns[Math.min(calls++, turns.length - 1)] as (typeof turns)[number];
      if (typeof turn === 'string') return { content: [{ type: 'text', text: turn }], text: turn, finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } };
      return {
        content: turn.map((call) => ({ type: 'tool-call' as const, id: call.id, name: call.name, arguments: safeParse(call.text), argumentsText: call.text })),
        text: '',
        finishReason: 'tool-calls',
        usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      };
    },
  } as ModelProvider & { calls: number };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

describe('guards check the value execute receives', () => {
  const paid: unknown[] = [];
  const pay = tool({ name: 'pay', description: 'pays', input: Type.Object({ amount: Type.Number(), dryRun: Type.Boolean() }), execute: (input) => {
      paid.push(input);
      return 'paid';
    } });
  const amountLimit: ToolGuard = (_name, args) => ((args as { amount?: unknown }).amount as number) > 1000 ? { code: 'over-limit', message: 'at most 1000' } : undefined;
  const dryRunOnly: ToolGuard = (_name, args) => ((args as { dryRun?: unknown }).dryRun === false ? { code: 'dry-run-only', message: 'dry runs only' } : undefined);

  it('an amount written as a string is guarded as the number that would be paid', async () => {
    paid.length = 0;
    const model = scriptedModel([{ toolCalls: [{ name: 'pay', arguments: { amount: '5000', dryRun: true } }] }, 'done']);
    const result = await Agent.create({ provider: model, model: 'm' }).tool(pay).guards([amountLimit]).build().run('pay');
    expect(paid).toEqual([]);
    expect(result.toolCalls[0]).toMatchObject({ errorCode: 'over-limit', isError: true });
  });

  it('"false" as a string is guarded as the boolean that would run', async () => {
    paid.length = 0;
    const model = scriptedModel([{ toolCalls: [{ name: 'pay', arguments: { amount: 5, dryRun: 'false' } }] }, 'done']);
    const result = await Agent.create({ provider: model, model: 'm' }).tool(pay).guards([dryRunOnly]).build().run('pay');
    expect(paid).toEqual([]);
    expect(result.toolCalls[0]).toMatchObject({ errorCode: 'dry-run-only' });
  });

  it('an enum value in other case is guarded as the value it is coerced to', async () => {
    const ran: unknown[] = [];
    const admin = tool({
      name: 'admin',
      description: 'admin actions',
      input: Type.Object({ action: Type.Union([Type.Literal('delete_account'), Type.Literal('reset_password')]) }),
      execute: (input) => {
      ran.push(input);
      return 'done';
    },
    });
    const noDeletes: ToolGuard = (_name, args) => ((args as { action?: unknown }).action === 'delete_account' ? { code: 'forbidden', message: 'no deletes' } : undefined);
    const model = scriptedModel([{ toolCalls: [{ name: 'admin', arguments: { action: 'DELETE_ACCOUNT' } }] }, 'done']);
    const result = await Agent.create({ provider: model, model: 'm' }).tool(admin).guards([noDeletes]).build().run('go');
    expect(ran).toEqual([]);
    expect(result.toolCalls[0]).toMatchObject({ errorCode: 'forbidden' });
  });
});

describe('tool arguments are read exactly as the model wrote them', () => {
  const accounts: unknown[] = [];
  const close = tool({ name: 'close', description: 'closes an account', input: Type.Object({ account: Type.Number() }), execute: ({ account }) => {
      accounts.push(account);
      return 'closed';
    } });

  it('a number a double cannot hold is re-asked, never rounded to another account', async () => {
    accounts.length = 0;
    const model = rawArgumentsModel([[{ id: 'c1', name: 'close', text: '{"account": 9007199254740993}' }], [{ id: 'c1', name: 'close', text: '{"account": 42}' }], 'done']);
    const result = await Agent.create({ provider: model, model: 'm' }).tool(close).build().run('close it');
    expect(accounts).toEqual([42]);
    expect(result.toolCalls[0]).toMatchObject({ isError: false, arguments: { account: 42 } });
    expect(model.calls).toBe(3);
  });

  it('a property given twice is re-asked, never the last one silently', async () => {
    const amounts: unknown[] = [];
    const refund = tool({ name: 'refund', description: 'refunds', input: Type.Object({ amount: Type.Number() }), execute: ({ amount }) => {
      amounts.push(amount);
      return 'ok';
    } });
    const model = rawArgumentsModel([[{ id: 'r1', name: 'refund', text: '{"amount": 10, "amount": 10000}' }], [{ id: 'r1', name: 'refund', text: '{"amount": 10}' }], 'done']);
    await Agent.create({ provider: model, model: 'm' }).tool(refund).build().run('refund');
    expect(amounts).toEqual([10]);
  });

  it('two tool calls with one id in a turn are a bad response, retried before any tool runs', async () => {
    const amounts: unknown[] = [];
    const refund = tool({ name: 'refund', description: 'refunds', input: Type.Object({ amount: Type.Number() }), execute: ({ amount }) => {
      amounts.push(amount);
      return 'ok';
    } });
    const model = scriptedModel([
      { toolCalls: [{ id: 'same', name: 'refund', arguments: { amount: 10 } }, { id: 'same', name: 'refund', arguments: { amount: 20 } }] },
      { toolCalls: [{ id: 'a', name: 'refund', arguments: { amount: 10 } }] },
      'done',
    ]);
    const result = await Agent.create({ provider: model, model: 'm' }).tool(refund).build().run('refund');
    expect(amounts).toEqual([10]);
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['bad-response', 'ok', 'ok']);
    const toolResults = model.requests[2]?.messages.filter((message) => message.role === 'tool') ?? [];
    expect(toolResults).toHaveLength(1);
  });

  it('a tool re-ask with a union input is not redundant when the mistake changes', async () => {
    const ran: unknown[] = [];
    const shape = tool({
      name: 'shape',
      description: 'draws',
      input: Type.Object({ shape: Type.Union([Type.Object({ kind: Type.Literal('circle'), radius: Type.Number() }), Type.Object({ kind: Type.Literal('square'), side: Type.Number() })]) }),
      coerce: false,
      execute: (input) => {
      ran.push(input);
      return 'drawn';
    },
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 's', name: 'shape', arguments: { shape: { kind: 'circle' } } }] },
      { toolCalls: [{ id: 's', name: 'shape', arguments: { shape: { kind: 'circle', radius: 'big' } } }] },
      { toolCalls: [{ id: 's', name: 'shape', arguments: { shape: { kind: 'circle', radius: 2 } } }] },
      'done',
    ]);
    const result = await Agent.create({ provider: model, model: 'm' }).tool(shape).build().run('draw');
    expect(ran).toEqual([{ shape: { kind: 'circle', radius: 2 } }]);
    expect(result.toolCalls[0]).toMatchObject({ isError: false });
  });
});
