import type { IndependentItem, Path, TextFault, ValueFault } from './independent-corpus';

/** `items.3.price`: a path with `.` between every segment, the notation paths are compared in. */
const dotted = (path: Path) => path.join('.');

/**
 * Every path a text mentions, in any usual notation, normalised to dotted form: JSON Pointers
 * (`/items/3/price`), bracket paths (`items[3].price`, `items[*].price`), dotted paths
 * (`items.3.price`) and bare names (`status`).
 */
export function mentionedPaths(text: string): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:^|[\s"'`(=:,])((?:\/[A-Za-z0-9_$*~-]+)+)/g)) {
    found.add((match[1] as string).slice(1).split('/').join('.'));
  }
  for (const match of text.matchAll(/[A-Za-z_$][\w$-]*(?:\[(?:\d+|\*)\]|\.(?:[A-Za-z_$][\w$-]*|\d+|\*))*/g)) {
    found.add(match[0].replace(/\[(\d+|\*)\]/g, '.$1'));
  }
  return found;
}

/** True when `mentioned` names `target`, a `*` standing for any array index. */
function names(mentioned: ReadonlySet<string>, target: string): boolean {
  if (mentioned.has(target)) return true;
  const parts = target.split('.');
  for (const candidate of mentioned) {
    if (!candidate.includes('*')) continue;
    const other = candidate.split('.');
    if (other.length === parts.length && other.every((segment, index) => segment === parts[index] || (segment === '*' && /^\d+$/.test(parts[index] as string)))) return true;
  }
  return false;
}

/**
 * Splits feedback into statements: its lines, and each element of any JSON array or object in it
 * (validators' raw errors), so a path and a constraint count only when stated together.
 */
export function statements(text: string): string[] {
  const out = text.split('\n');
  const json = /[[{][\s\S]*[\]}]/.exec(text);
  if (json) {
    try {
      const parsed: unknown = JSON.parse(json[0]);
      const list = Array.isArray(parsed) ? parsed : [parsed];
      for (const entry of list) out.push(JSON.stringify(entry));
    } catch {
      // not JSON: its lines are already statements
    }
  }
  return out;
}

/** A statement names a value fault: its path (for a missing or extra key, the parent and the key) with the expected constraint. */
function statesFault(statement: string, fault: ValueFault): boolean {
  const lower = statement.toLowerCase();
  if (!fault.constraint.some((word) => lower.includes(word.toLowerCase()))) return false;
  const mentioned = mentionedPaths(statement);
  if (names(mentioned, dotted(fault.path))) return true;
  if (fault.kind !== 'missing' && fault.kind !== 'extra') return false;
  const parent = fault.path.slice(0, -1);
  const key = String(fault.path[fault.path.length - 1]);
  return mentioned.has(key) && (parent.length === 0 || names(mentioned, dotted(parent)));
}

/** Feedback that says the reply is not one complete, parseable JSON value, in any of the usual words. */
const notOneValue = /could not be parsed|parse error|not valid json|invalid json|unexpected (token|end)|truncated|exactly one json value|only one json value|several json values/i;

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * A model that reads feedback for its meaning, in any format: it fixes a value defect when one
 * statement of the feedback names the defect's path and the constraint expected there, and it
 * resends one complete bare JSON value (dropping every text defect) when the feedback says the
 * reply did not parse or held more than one value. Blind retries fix nothing. Fixes persist.
 */
export class MeaningModel {
  private valueFaults: ValueFault[];
  private textFaults: TextFault[];
  calls = 0;

  constructor(readonly item: IndependentItem) {
    this.valueFaults = [...item.valueFaults];
    this.textFaults = [...item.textFaults];
  }

  /** Answers; `feedback` is the latest feedback text, when the request carries one. */
  answer(feedback: string | undefined): string {
    this.calls++;
    if (feedback !== undefined) {
      const said = statements(feedback);
      if (notOneValue.test(feedback)) this.textFaults = [];
      this.valueFaults = this.valueFaults.filter((fault) => !said.some((statement) => statesFault(statement, fault)));
    }
    return this.render();
  }

  private render(): string {
    const value = clone(this.item.source) as unknown as Record<string, unknown>;
    for (const fault of this.valueFaults) fault.apply(value);
    const { indent } = this.item;
    let text = JSON.stringify(value, null, indent);
    const has = <K extends TextFault['kind']>(kind: K) => this.textFaults.find((fault): fault is Extract<TextFault, { kind: K }> => fault.kind === kind);
    if (has('unquoted-keys')) text = text.replace(/"([A-Za-z_][\w]*)":/g, '$1:');
    if (has('python-literals')) text = text.replace(/(:\s*)(true|false|null)\b/g, (_all, colon: string, word: string) => `${colon}${word === 'true' ? 'True' : word === 'false' ? 'False' : 'None'}`);
    if (has('comments')) text = text.replace('{', '{ // extracted from the email\n').replace(/("?items"?:)/, '/* prices in EUR */ $1');
    const two = has('two-values');
    if (two) text = `${two.label}\n${JSON.stringify(two.draft, null, indent)}\n\nFinal answer:\n${text}`;
    const truncated = has('truncated');
    if (truncated) text = text.slice(0, Math.max(1, Math.floor(text.length * truncated.keep)));
    return text;
  }
}
