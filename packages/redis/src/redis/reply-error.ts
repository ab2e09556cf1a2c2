import { RedisError } from '../errors/redis-error';

/** The prefix of the error replies Keel's scripts send about a key they will not touch. */
export const BAD_KEY_REPLY = 'KEELKEY';

/**
 * The permanent error a Redis error reply stands for, or `undefined` when the reply may go away
 * on its own (a failover's `READONLY`, `LOADING`, `BUSY`, `TRYAGAIN`, `CLUSTERDOWN`, a dropped
 * connection): a key of the wrong type or with a value Keel cannot read, or keys of one operation
 * in different cluster slots.
 */
export function permanentReplyError(error: unknown, operation: string): RedisError | undefined {
  if (!(error instanceof Error)) return undefined;
  const { message } = error;
  if (message.startsWith(`${BAD_KEY_REPLY} `)) {
    // "KEELKEY <key>\t<what is wrong>"
    const rest = message.slice(BAD_KEY_REPLY.length + 1);
    const tab = rest.indexOf('\t');
    const key = tab < 0 ? '' : rest.slice(0, tab);
    const detail = (tab < 0 ? rest : rest.slice(tab + 1)).replace(/ script: .*$/s, '');
    return new RedisError({ problem: 'key', key, operation, message: detail, cause: error });
  }
  if (/^(WRONGTYPE|CROSSSLOT)\b/.test(message) || /\bnot an integer\b/.test(message)) {
    return new RedisError({ problem: 'key', key: '', operation, message: message.split('\n')[0] ?? message, cause: error });
  }
  return undefined;
}
