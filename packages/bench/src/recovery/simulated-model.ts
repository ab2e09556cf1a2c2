import { parsePointer } from '@keel/reliability/internal';
import type { CorpusItem } from './corpus';
import { type DefectKind, pathString, renderOutput, type SyntaxDefect, type ValueDefect } from './render';

/** What a feedback text says is wrong: the output did not parse, and/or issues by path and kind. */
export interface ReadFeedback {
  readonly notParseable: boolean;
  /** `path|kind` pairs, the path written as `items[0].qty`. */
  readonly named: ReadonlySet<string>;
}

const parsePattern = /could not be parsed|not parseable|not valid JSON|parse error|failed to parse|Unexpected end of JSON input/i;

/** Kind of a prose feedback line (`- 'path': …`), from its wording. */
function kindOfLine(rest: string): string {
  if (/^required field is missing/i.test(rest)) return 'missing';
  if (/^unknown field/i.test(rest)) return 'extra';
  if (/^must be one of/i.test(rest)) return 'enum';
  if (/^expected (ISO |email|UUID|absolute|IPv4|\S+ format)/.test(rest)) return 'format';
  if (rest.startsWith('expected ')) return 'type';
  if (/^too small/i.test(rest)) return 'too-small';
  if (/^too big/i.test(rest)) return 'too-big';
  return 'other';
}

const kindByKeyword: Readonly<Record<string, DefectKind>> = {
  required: 'missing',
  additionalProperties: 'extra',
  type: 'type',
  format: 'format',
  enum: 'enum',
  const: 'enum',
  anyOf: 'enum',
  oneOf: 'enum',
  minimum: 'too-small',
  exclusiveMinimum: 'too-small',
};

interface RawAjvError {
  readonly instancePath?: unknown;
  readonly keyword?: unknown;
  readonly params?: { readonly missingProperty?: unknown; readonly additionalProperty?: unknown };
}

/**
 * Reads a feedback text as a model would: prose issue lines (`- 'items[0].qty': expected …`),
 * any JSON array of validator errors (`instancePath`, `keyword`, `params`), and whether it says the
 * output was not parseable. Nothing else is understood.
 */
export function readFeedback(text: string): ReadFeedback {
  const named = new Set<string>();
  for (const match of text.matchAll(/^- '((?:[^'\\]|\\.)*)': (.+)$/gm)) {
    let path = match[1] as string;
    try {
      path = JSON.parse(`"${path.replace(/\\'/g, "'")}"`) as string;
    } catch {
      // keep the raw text
    }
    named.add(`${path}|${kindOfLine(match[2] as string)}`);
  }
  const array = /\[\s*\{[\s\S]*\}\s*\]/.exec(text);
  if (array) {
    let errors: unknown;
    try {
      errors = JSON.parse(array[0]);
    } catch {
      errors = undefined;
    }
    if (Array.isArray(errors)) {
      for (const error of errors as RawAjvError[]) {
        if (typeof error?.instancePath !== 'string' || typeof error.keyword !== 'string') continue;
        const path: (string | number)[] = [...parsePointer(error.instancePath)];
        if (error.keyword === 'required' && typeof error.params?.missingProperty === 'string') path.push(error.params.missingProperty);
        if (error.keyword === 'additionalProperties' && typeof error.params?.additionalProperty === 'string') path.push(error.params.additionalProperty);
        named.add(`${pathString(path)}|${kindByKeyword[error.keyword] ?? 'other'}`);
      }
    }
  }
  return { notParseable: parsePattern.test(text), named };
}

/**
 * A model answering one corpus item. The first answer is the item's defective text. On each later
 * call it reads the feedback (the last user message, when there is one after the task) and repairs
 * exactly what the feedback names: the value defects whose path and kind it states, and, when it
 * says the output was not parseable, every text-level defect (it resends complete, bare JSON).
 * Without feedback (a blind retry) it repairs nothing. Fixes persist across its later answers.
 */
export class SimulatedModel {
  private values: ValueDefect[];
  private syntax: SyntaxDefect[];
  calls = 0;

  constructor(readonly item: CorpusItem) {
    this.values = [...item.valueDefects];
    this.syntax = [...item.syntaxDefects];
  }

  /** Answers a conversation whose first message is the task and whose last may be feedback. */
  answer(messages: readonly { readonly role: string; readonly content: unknown }[]): string {
    this.calls++;
    const last = messages[messages.length - 1];
    if (this.calls > 1 && messages.length > 1 && last?.role === 'user' && typeof last.content === 'string') {
      const feedback = readFeedback(last.content);
      if (feedback.notParseable) this.syntax = [];
      this.values = this.values.filter((defect) => !feedback.named.has(`${pathString(defect.path)}|${defect.kind}`));
    }
    if (this.calls === 1) return this.item.text;
    return renderOutput(this.item.source, this.values, this.syntax, this.item.indent);
  }
}
