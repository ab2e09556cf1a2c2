/** A signal aborted by the caller's or, after `timeoutMs`, with a `TimeoutError` reason. */
export function runDeadline(timeoutMs: number, caller: AbortSignal | undefined): { readonly signal: AbortSignal; readonly clear: () => void } {
  const controller = new AbortController();
  const forward = () => controller.abort(caller?.reason);
  if (caller?.aborted) forward();
  else caller?.addEventListener('abort', forward, { once: true });
  const timer = setTimeout(() => controller.abort(new DOMException(`the run took longer than its timeoutMs (${timeoutMs} ms)`, 'TimeoutError')), timeoutMs);
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', forward);
    },
  };
}
