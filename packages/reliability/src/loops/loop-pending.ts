/** States that say work is under way and will end on its own: a later check may read otherwise. */
const UNDER_WAY = String.raw`(?:pending|queued|waiting|scheduled|running|processing|in[ _-]?progress|started|starting|building|deploying|provisioning|initiali[sz]ing|creating|updating|rolling[ _-]?out|not[ _-]?ready|not[ _-]?started|not[ _-]?done|not[ _-]?finished|incomplete)`;

/** A JSON field that names a state, with an under-way value: `"status": "in_progress"`. */
const STATE_FIELD = new RegExp(String.raw`"(?:status|state|phase|stage|job[_-]?status|run[_-]?status|deploy(?:ment)?[_-]?status)"\s*:\s*"${UNDER_WAY}"`, 'i');

/** Text that names a state: `status: running`, `deploy state is pending`, `Status = QUEUED`. */
const STATE_TEXT = new RegExp(String.raw`\b(?:status|state|phase)\b\s*(?:is\s+|[:=]\s*)["']?${UNDER_WAY}\b`, 'i');

/** Text that says the work has not ended yet: `still running`, `in progress`, `not ready yet`. */
const NOT_YET = /\b(?:still\s+(?:pending|queued|waiting|running|processing|in\s+progress|working|building|deploying)|in\s+progress|not\s+(?:yet\s+)?(?:ready|done|finished|complete|completed)\s+yet)\b/i;

/**
 * Whether a tool's result reports work still under way (a job, a deploy, a build that has not
 * ended): a state field or phrase whose value is `pending`, `queued`, `waiting`, `scheduled`,
 * `running`, `processing`, `in_progress`, `started`, `starting`, `building`, `deploying`,
 * `provisioning`, `initializing`, `creating`, `updating`, `rolling_out`, `not_ready`,
 * `not_started`, `not_done`, `not_finished` or `incomplete` (`"status": "in_progress"`,
 * `state is running`), or text such as `still running`, `in progress`, `not ready yet`. Such a
 * result may read otherwise at a later check: checking it again after waiting (or doing
 * something else) is polling, never a loop. Read from the result alone, never from a tool's name.
 */
export function loopResultPending(output: string): boolean {
  // A long result is data, not a status report; its first 4 KB say what state it reports.
  const head = output.length > 4096 ? output.slice(0, 4096) : output;
  return STATE_FIELD.test(head) || STATE_TEXT.test(head) || NOT_YET.test(head);
}
