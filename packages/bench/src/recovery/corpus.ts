import type { CreateTask, OrderExtraction, RefundDecision, SchemaName } from './schemas';
import { type DefectClass, renderOutput, type SyntaxDefect, type SyntaxDefectClass, type ValueDefect, type ValueDefectClass } from './render';

/** One defective model output, with the valid object it came from. */
export interface CorpusItem {
  readonly id: string;
  readonly schema: SchemaName;
  /** The user message that asked for it. */
  readonly prompt: string;
  /** The valid object the model meant to send. */
  readonly source: unknown;
  /** Defect classes present; `several` marks an item with two or more defects. */
  readonly classes: readonly DefectClass[];
  /** The row it is reported under: its one class, or `several`. */
  readonly group: DefectClass;
  /**
   * `syntactic`: only text-level defects (fences, prose, trailing commas, quotes, truncation);
   * `semantic`: at least one defect in the value itself, which only the model can fix.
   */
  readonly nature: 'syntactic' | 'semantic';
  /** Every defect can be repaired without the model (syntactic and not truncated). */
  readonly locallyRepairable: boolean;
  /**
   * Fewest model calls with ideal feedback: 1, plus one re-ask to resend a truncated output in
   * full, plus one re-ask for the set of value defects (all named at once).
   */
  readonly idealCalls: number;
  /** Fixable within 3 model calls by a model that acts on feedback (every item here). */
  readonly recoverable: boolean;
  readonly valueDefects: readonly ValueDefect[];
  readonly syntaxDefects: readonly SyntaxDefect[];
  /** 0 for compact JSON, else the indent of the pretty-printed text. */
  readonly indent: number;
  /** The defective output as the model first sends it. */
  readonly text: string;
}

/** Deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const int = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));

const SYNTAX_CLASSES: readonly SyntaxDefectClass[] = ['markdown-fence', 'prose', 'trailing-comma', 'single-quotes', 'truncated'];

const refundReasons = [
  'Item arrived damaged and the customer sent photos',
  "Customer's parcel was lost in transit",
  'Order is outside the 30-day return window',
  'Wrong size delivered, unopened',
  'Duplicate charge on the card',
  'Product used for more than 60 days',
  'Package marked delivered but never received',
  'Customer changed their mind after the return window',
  'Screen cracked on arrival, courier confirmed',
  'Digital download already redeemed',
];
const taskTitles = [
  'Fix login timeout on Safari',
  'Migrate billing cron to the new queue',
  'Write release notes for 2.4',
  'Review the onboarding copy',
  'Rotate the staging API keys',
  'Add retry to the webhook sender',
  'Archive Q1 support tickets',
  'Update the GDPR data map',
];
const tagPool = ['backend', 'frontend', 'urgent', 'billing', 'docs', 'security', 'ops', 'customer'];
const names = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Katherine Johnson', 'Linus Pauling', 'Hedy Lamarr', 'Tim Berners-Lee', 'Margaret Hamilton'];
const domains = ['example.com', 'acme.io', 'mail.example.org', 'northwind.co'];
const skus: readonly [string, 'hardware' | 'software' | 'service'][] = [
  ['KB-1042', 'hardware'],
  ['MON-27Q', 'hardware'],
  ['DOCK-U3', 'hardware'],
  ['LIC-OFF-365', 'software'],
  ['AV-PRO-1Y', 'software'],
  ['SUP-GOLD', 'service'],
  ['INST-ONSITE', 'service'],
];
const proseBefore = [
  "Sure! Here's the result:\n\n",
  'Here is the JSON you asked for:\n',
  'Based on the information provided, this is my answer.\n\n',
  'Certainly. ',
  'I reviewed the request carefully. Result:\n',
];
const proseAfter = [
  '\n\nLet me know if you need anything else.',
  '\n\nI hope this helps!',
  '\nNote: the values above follow the schema you gave.',
  '',
  '\n\nFeel free to ask for changes.',
];

function uuid(random: Random): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  const text = hex.join('');
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}

function makeSource(schema: SchemaName, random: Random): { source: unknown; prompt: string } {
  if (schema === 'refund') {
    const source: RefundDecision = {
      action: random() < 0.6 ? 'refund' : 'reject',
      amount: int(random, 500, 40_000) / 100,
      reason: pick(random, refundReasons),
    };
    return { source, prompt: `Order A-${int(random, 1000, 9999)}: ${source.reason.toLowerCase()}. The customer paid ${source.amount} USD and asks for a refund. Decide.` };
  }
  if (schema === 'task') {
    const tags = [...new Set(Array.from({ length: int(random, 1, 3) }, () => pick(random, tagPool)))];
    const due = new Date(Date.UTC(2026, int(random, 0, 11), int(random, 1, 28), int(random, 8, 18), 0, 0));
    const source: CreateTask = { project_id: uuid(random), title: pick(random, taskTitles), due_date: due.toISOString().replace('.000Z', 'Z'), tags };
    return { source, prompt: `Please create a task "${source.title}" in project ${source.project_id}, due ${due.toUTCString()}, tagged ${tags.join(', ')}.` };
  }
  const name = pick(random, names);
  const email = `${name.toLowerCase().replace(/[^a-z ]/g, '').split(' ').join('.')}@${pick(random, domains)}`;
  const items = Array.from({ length: int(random, 1, 3) }, () => {
    const [sku, category] = pick(random, skus);
    return { sku, qty: int(random, 1, 5), category };
  });
  const source: OrderExtraction = { customer: { name, email }, items, priority: pick(random, ['low', 'normal', 'high'] as const) };
  const lines = items.map((item) => `- ${item.qty} x ${item.sku}`).join('\n');
  return { source, prompt: `Extract the order from this email.\n\nFrom: ${name} <${email}>\nHi, please send us:\n${lines}\nPriority: ${source.priority}. Thanks, ${name.split(' ')[0]}` };
}

const defect = (klass: ValueDefectClass, path: ValueDefect['path'], kind: ValueDefect['kind'], value?: unknown): ValueDefect =>
  value === undefined ? { class: klass, path, kind, op: 'delete' } : { class: klass, path, kind, op: 'set', value };

const cased = (random: Random, text: string) => (random() < 0.5 ? text.toUpperCase() : `${text[0]?.toUpperCase()}${text.slice(1)}`);
const withUnit = (random: Random, amount: number) => pick(random, [`USD ${amount}`, `$${amount.toFixed(2)}`, `${amount} EUR`, `${amount.toFixed(2)} USD`]);
const splitWords = (text: string) => {
  const words = text.split(' ');
  const half = Math.ceil(words.length / 2);
  return [words.slice(0, half).join(' '), words.slice(half).join(' ')].filter((part) => part.length > 0);
};

/** Value defects by schema and class: each builds one defect of that class for a source object. */
const valueDefects: Readonly<Record<SchemaName, Partial<Record<ValueDefectClass, (random: Random, source: never) => ValueDefect>>>> = {
  refund: {
    'unit-string': (random, source: RefundDecision) => defect('unit-string', ['amount'], 'type', withUnit(random, source.amount)),
    'missing-field': (random) => defect('missing-field', [pick(random, ['reason', 'amount', 'action'])], 'missing'),
    'extra-field': (random) => {
      const [key, value] = pick(random, [['confidence', 0.92], ['order_id', 'A-1182'], ['notes', 'Customer was polite']] as const);
      return defect('extra-field', [key], 'extra', value);
    },
    'list-for-string': (_random, source: RefundDecision) => defect('list-for-string', ['reason'], 'type', splitWords(source.reason)),
    'enum-case': (random, source: RefundDecision) => defect('enum-case', ['action'], 'enum', cased(random, source.action)),
  },
  task: {
    'missing-field': (random) => defect('missing-field', [pick(random, ['due_date', 'tags', 'project_id'])], 'missing'),
    'extra-field': (random) => {
      const [key, value] = pick(random, [['priority', 'high'], ['assignee', 'sam.k'], ['estimate_hours', 3]] as const);
      return defect('extra-field', [key], 'extra', value);
    },
    'string-for-list': (_random, source: CreateTask) => defect('string-for-list', ['tags'], 'type', source.tags.join(', ')),
    'list-for-string': (_random, source: CreateTask) => defect('list-for-string', ['title'], 'type', splitWords(source.title)),
    'natural-date': (random) => defect('natural-date', ['due_date'], 'format', pick(random, ['tomorrow', 'next Friday', 'end of the month', 'in two weeks', 'Friday 5pm'])),
  },
  extraction: {
    'unit-string': (random, source: OrderExtraction) => {
      const index = int(random, 0, source.items.length - 1);
      const qty = source.items[index]?.qty ?? 1;
      return defect('unit-string', ['items', index, 'qty'], 'type', pick(random, [`${qty} units`, `${qty} pcs`, `x${qty}`]));
    },
    'missing-field': (random) => defect('missing-field', [pick(random, ['priority', 'customer'])], 'missing'),
    'extra-field': (random) => {
      const [key, value] = pick(random, [['order_id', 'PO-4471'], ['currency', 'EUR'], ['summary', 'Repeat order']] as const);
      return defect('extra-field', [key], 'extra', value);
    },
    'string-for-list': (_random, source: OrderExtraction) =>
      defect('string-for-list', ['items'], 'type', source.items.map((item) => `${item.qty}x ${item.sku} (${item.category})`).join(', ')),
    'list-for-string': (_random, source: OrderExtraction) => defect('list-for-string', ['customer', 'name'], 'type', source.customer.name.split(' ')),
    'enum-case': (random, source: OrderExtraction) => {
      if (random() < 0.5) return defect('enum-case', ['priority'], 'enum', cased(random, source.priority));
      const index = int(random, 0, source.items.length - 1);
      return defect('enum-case', ['items', index, 'category'], 'enum', cased(random, source.items[index]?.category ?? 'hardware'));
    },
    'nested-path': (random, source: OrderExtraction) => {
      const index = int(random, 0, source.items.length - 1);
      const item = ['items', index] as const;
      switch (int(random, 0, 6)) {
        case 0:
          return defect('nested-path', [...item, 'qty'], 'too-small', 0);
        case 1:
          return defect('nested-path', [...item, 'qty'], 'type', (source.items[index]?.qty ?? 1) + 0.5);
        case 2:
          return defect('nested-path', ['customer', 'email'], 'format', source.customer.email.replace('@', ' at '));
        case 3:
          return defect('nested-path', ['customer', 'email'], 'missing');
        case 4:
          return defect('nested-path', [...item, 'sku'], 'missing');
        case 5:
          return defect('nested-path', [...item, 'category'], 'enum', pick(random, ['services', 'hw', 'support', 'licence']));
        default:
          return defect('nested-path', [...item, 'warranty'], 'extra', '2 years');
      }
    },
  },
};

function syntaxDefect(klass: SyntaxDefectClass, random: Random): SyntaxDefect {
  switch (klass) {
    case 'markdown-fence':
      return { class: klass, language: pick(random, ['json', 'json', '', 'JSON']) };
    case 'prose':
      return { class: klass, before: pick(random, proseBefore), after: pick(random, proseAfter) };
    case 'truncated':
      return { class: klass, keep: 0.4 + random() * 0.5 };
    default:
      return { class: klass };
  }
}

const overlaps = (a: ValueDefect['path'], b: ValueDefect['path']) => {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) if (a[index] !== b[index]) return false;
  return true;
};

function makeItem(id: string, schema: SchemaName, classes: readonly (SyntaxDefectClass | ValueDefectClass)[], random: Random): CorpusItem | undefined {
  const { source, prompt } = makeSource(schema, random);
  const values: ValueDefect[] = [];
  const syntax: SyntaxDefect[] = [];
  for (const klass of classes) {
    if ((SYNTAX_CLASSES as readonly string[]).includes(klass)) {
      syntax.push(syntaxDefect(klass as SyntaxDefectClass, random));
      continue;
    }
    const build = valueDefects[schema][klass as ValueDefectClass] as (random: Random, source: unknown) => ValueDefect;
    const made = build(random, source);
    if (values.some((other) => overlaps(other.path, made.path))) return undefined;
    values.push(made);
  }
  const truncated = syntax.some((entry) => entry.class === 'truncated');
  const indent = random() < 0.65 ? 2 : 0;
  const idealCalls = 1 + (truncated ? 1 : 0) + (values.length > 0 ? 1 : 0);
  return {
    id,
    schema,
    prompt,
    source,
    classes: classes.length > 1 ? [...classes, 'several'] : classes,
    group: classes.length > 1 ? 'several' : (classes[0] as DefectClass),
    nature: values.length > 0 ? 'semantic' : 'syntactic',
    locallyRepairable: values.length === 0 && !truncated,
    idealCalls,
    recoverable: idealCalls <= 3,
    valueDefects: values,
    syntaxDefects: syntax,
    indent,
    text: renderOutput(source, values, syntax, indent),
  };
}

/** Classes that apply to a schema. */
export function classesOf(schema: SchemaName): (SyntaxDefectClass | ValueDefectClass)[] {
  return [...SYNTAX_CLASSES, ...(Object.keys(valueDefects[schema]) as ValueDefectClass[])];
}

/**
 * The recovery corpus: for each schema, `perClass` items of every class that applies to it, and
 * `several` items with 2–4 defects at once (at most one truncation, no two defects on one path).
 * Deterministic for a seed.
 */
export function buildCorpus(options: { seed?: number; perClass?: number; several?: number } = {}): CorpusItem[] {
  const { seed = 20_260_503, perClass = 8, several = 26 } = options;
  const random = prng(seed);
  const items: CorpusItem[] = [];
  for (const schema of ['refund', 'task', 'extraction'] as const) {
    const applicable = classesOf(schema);
    for (const klass of applicable) {
      for (let index = 0; index < perClass; index++) {
        const item = makeItem(`${schema}-${klass}-${index}`, schema, [klass], random);
        if (item) items.push(item);
      }
    }
    for (let made = 0; made < several; ) {
      const count = int(random, 2, 4);
      const chosen = new Set<SyntaxDefectClass | ValueDefectClass>();
      while (chosen.size < count) chosen.add(pick(random, applicable));
      const item = makeItem(`${schema}-several-${made}`, schema, [...chosen], random);
      if (item) {
        items.push(item);
        made++;
      }
    }
  }
  return items;
}
