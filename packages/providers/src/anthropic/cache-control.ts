/** The prompt-cache breakpoint marker the Messages API reads on a block, tool or system part. */
export const ephemeralCacheControl = { type: 'ephemeral' } as const;
