import { compare, minorGc, pairedRatio } from './measure';
import { bareRun, keelAgent, keelAgentBuilder } from './overhead';
const names = ['run.start','step.start','model.request','model.response','tool.start','tool.validation','tool.end','step.end','run.end'] as const;
const listened = names.reduce((b, n) => b.on(n, () => undefined), keelAgentBuilder()).build();
const untraced = keelAgent(); const bare = bareRun();
const N = 50;
const t = await compare([
  { name: 'bare', run: async () => { for (let i = 0; i < N; i++) await bare('x'); } },
  { name: 'listened', run: async () => { for (let i = 0; i < N; i++) await listened.run('x'); } },
  { name: 'untraced', run: async () => { for (let i = 0; i < N; i++) await untraced.run('x'); } },
], { rounds: 40, batch: 10, warmup: 40, settle: minorGc });
const b = t.get('bare')!, l = t.get('listened')!, u = t.get('untraced')!;
console.log('bare', b.medianUs / N, 'untraced', u.medianUs / N, 'listened', l.medianUs / N);
const shares = l.rounds.map((v, i) => (v - u.rounds[i]!) / (u.rounds[i]! - b.rounds[i]!)).sort((x, y) => x - y);
console.log('ratio', pairedRatio(l, u), 'share p25/50/75', shares[10], shares[20], shares[30]);
