/** The Redis pub/sub channel on which a queue's workers hear cancellations. */
export function cancelChannel(prefix: string, queueName: string): string {
  return `${prefix}:${queueName}:keel-cancel`;
}
