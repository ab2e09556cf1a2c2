/**
 * The part of an ioredis client (`Redis` or `Cluster`) Keel uses: Lua scripts only, so every
 * operation is one atomic round trip.
 */
export interface RedisClient {
  evalsha(sha: string, numberOfKeys: number, ...keysAndArguments: (string | number)[]): Promise<unknown>;
  eval(script: string, numberOfKeys: number, ...keysAndArguments: (string | number)[]): Promise<unknown>;
}
