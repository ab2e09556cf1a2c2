import type { JoinReading } from './join-continuation';

/** The one reading a judge accepts, with its verdict. */
interface SettledReading<TVerdict> {
  readonly reading: JoinReading;
  readonly verdict: TVerdict;
}

/**
 * Settles a join that reads as several values (see `joinContinuation`'s `readings`): each reading is
 * judged as the reply; when exactly one is `valid`, it is the join. None or several: `undefined`,
 * and the join stays refused (several valid values are never chosen between). Synchronous when every
 * verdict is.
 */
export function settleReadings<TVerdict>(
  readings: readonly JoinReading[],
  judge: (text: string) => TVerdict | Promise<TVerdict>,
  valid: (verdict: TVerdict) => boolean,
): SettledReading<TVerdict> | undefined | Promise<SettledReading<TVerdict> | undefined> {
  const verdicts = readings.map((reading) => judge(reading.text));
  const pick = (settled: readonly TVerdict[]): SettledReading<TVerdict> | undefined => {
    const accepted = settled.flatMap((verdict, index) => (valid(verdict) ? [{ reading: readings[index] as JoinReading, verdict }] : []));
    return accepted.length === 1 ? accepted[0] : undefined;
  };
  return verdicts.some((verdict) => verdict instanceof Promise) ? Promise.all(verdicts).then(pick) : pick(verdicts as TVerdict[]);
}
