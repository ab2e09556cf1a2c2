export { dbosAgent, type DbosAgent, type DbosAgentInput, type DbosAgentOptions } from './dbos-agent';
export { DECISIONS_TOPIC, type DbosDecisionMessage, type DbosDecisions, type DbosSuspension, SUSPENSION_EVENT } from './decisions';
