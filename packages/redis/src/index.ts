export { type SharedBackoff, sharedBackoff, type SharedBackoffOptions } from './backoff/shared-backoff';
export { type BudgetSpent, type SharedBudget, sharedBudget, type SharedBudgetLimit, type SharedBudgetOptions } from './budget/shared-budget';
export { ConversationBusyError } from './errors/conversation-busy-error';
export { MemoryLeaseLostError } from './errors/memory-lease-lost-error';
export { RedisKeyError } from './errors/redis-key-error';
export { RedisUnavailableError } from './errors/redis-unavailable-error';
export { type ConversationPolicy, redisMemory, type RedisMemoryOptions } from './memory/redis-memory';
export type { RedisClient } from './redis/redis-client';
export { redisRunStore, type RedisRunStoreOptions } from './runs/redis-run-store';
