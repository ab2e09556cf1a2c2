/** `loop` turned to start at `runId` when it is one of its runs. */
const startingAt = (loop: readonly string[], runId: string): readonly string[] => {
  const index = loop.indexOf(runId);
  return index <= 0 ? loop : [...loop.slice(index), ...loop.slice(0, index)];
};

/**
 * The runs whose chain of parents never reaches a top-level run (one with no parent, or whose
 * parent is not in the file), each with the loop its chain enters, every run followed by its
 * parent: `[a]` for a run that names itself; `[a, b]` for `a` when its parent is `b` and `b`'s is
 * `a`, and `[b, a]` for `b`; a run whose parents lead into the loop gets it from where they enter.
 * A hand-made or corrupted trace can hold such runs: the page lists them at top level, so that
 * none goes missing.
 *
 * `parentOf`: each run of the file and the parent it names. Each run is walked over once.
 */
export function parentLoops(parentOf: ReadonlyMap<string, string | undefined>): ReadonlyMap<string, readonly string[]> {
  const loops = new Map<string, readonly string[]>();
  const rooted = new Set<string>();
  for (const start of parentOf.keys()) {
    const chain: string[] = [];
    const onChain = new Map<string, number>();
    let loop: readonly string[] | undefined;
    for (let current: string | undefined = start; current !== undefined && parentOf.has(current) && !rooted.has(current); current = parentOf.get(current)) {
      loop = loops.get(current) ?? (onChain.has(current) ? chain.slice(onChain.get(current)) : undefined);
      if (loop) break;
      onChain.set(current, chain.length);
      chain.push(current);
    }
    for (const runId of chain) {
      if (loop) loops.set(runId, startingAt(loop, runId));
      else rooted.add(runId);
    }
  }
  return loops;
}
