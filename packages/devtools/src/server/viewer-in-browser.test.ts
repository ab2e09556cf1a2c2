import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, watchedPage } from '../testing/browser';
import { writeStableTrace } from '../testing/stable-trace';
import { HOSTILE_ANSWER, HOSTILE_POLICY, recordApprovalRun, recordReAskRun } from '../testing/support-runs';
import { fileTrace } from '../trace/file-trace';
import { type DevtoolsServer, startDevtools } from './start-devtools';

/** The screenshots docs/devtools.md shows. */
const IMAGES = fileURLToPath(new URL('../../../../docs/images/', import.meta.url));

let browser: { context: BrowserContext; close: () => Promise<void> };
const servers: DevtoolsServer[] = [];
const folder = mkdtempSync(join(tmpdir(), 'keel-devtools-browser-'));

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
});

/** Records the re-ask run and the approval run into a new file; returns the file and the run ids. */
async function record(name: string, recordContent: boolean) {
  const file = join(folder, name);
  const trace = fileTrace(file, { recordContent });
  const reAsk = await recordReAskRun(trace);
  const approval = await recordApprovalRun(trace);
  await trace.flush();
  return { file, trace, reAskId: reAsk.runId, approvalId: approval.runId };
}

async function serve(file: string): Promise<DevtoolsServer> {
  const server = await startDevtools({ file, port: 0 });
  servers.push(server);
  return server;
}

/** The card of one model call of the run shown (not of a sub-agent), by its title (`step 3 · attempt 2`). */
const card = (page: Page, title: string) => page.locator('main > .run > .segment > .step > .attempts > article.attempt', { has: page.locator(`h3:text-is("${title}")`) });

describe('the trace viewer in Chromium', () => {
  it("shows each attempt's feedback, rule and cost of a run with two re-asks and a tool re-ask, runs no model text, logs no error", async () => {
    const { file, reAskId } = await record('content.jsonl', true);
    const server = await serve(file);
    const { page, errors } = await watchedPage(browser.context);
    await page.goto(`${server.url}?run=${reAskId}`);

    await expect(page.locator('main [data-part="model-calls"]').first().textContent()).resolves.toContain('7 model call(s) (1 by sub-agents)');
    await expect(page.locator('main [data-part="re-asks"]').first().textContent()).resolves.toContain('3 re-ask(s)');

    // The tool re-ask: the bad call, then the re-ask carrying its feedback.
    const badCall = card(page, 'step 1 · attempt 1');
    await expect(badCall.locator('[data-part="decision"]').textContent()).resolves.toContain('re-ask');
    await expect(badCall.locator('[data-part="cost"]').textContent()).resolves.toBe('$0.004200');
    const reAsk = card(page, 'step 1 · re-ask 1 of lookup-1');
    await expect(reAsk.locator('[data-part="feedback"]').textContent()).resolves.toContain("'orderId': expected string");
    await expect(reAsk.locator('[data-part="cost"]').textContent()).resolves.toBe('$0.004800');

    // Two re-asks of the answer: each failed attempt's decision names the rule; the next attempt shows the feedback sent.
    const notJson = card(page, 'step 3 · attempt 1');
    await expect(notJson.locator('[data-part="issues"]').textContent()).resolves.toContain('json-parse');
    await expect(notJson.locator('[data-part="rule"]').textContent()).resolves.toBe('rule: schema-retry');
    await expect(notJson.locator('[data-part="answer"] pre').textContent()).resolves.toBe(HOSTILE_ANSWER);
    await expect(notJson.locator('[data-part="cost"]').textContent()).resolves.toBe('$0.005550');
    const wrongType = card(page, 'step 3 · attempt 2');
    await expect(wrongType.locator('[data-part="feedback"]').textContent()).resolves.toContain('could not be parsed as JSON');
    await expect(wrongType.locator('[data-part="feedback-rule"]').textContent()).resolves.toBe('rule: schema-retry');
    await expect(wrongType.locator('[data-part="issues"]').textContent()).resolves.toContain('schema-validate');
    await expect(wrongType.locator('[data-part="rule"]').textContent()).resolves.toBe('rule: schema-retry');
    await expect(wrongType.locator('[data-part="cost"]').textContent()).resolves.toBe('$0.006150');
    const accepted = card(page, 'step 3 · attempt 3');
    await expect(accepted.locator('[data-part="feedback"]').textContent()).resolves.toContain("'amount': expected number");
    await expect(accepted.locator('[data-part="decision"]').textContent()).resolves.toContain('recovered via feedback');
    await expect(accepted.locator('[data-part="cost"]').textContent()).resolves.toBe('$0.006150');

    // The cost chart: one bar per model call, one for the sub-agent's, the run's total as its ledger counts it.
    await expect(page.locator('main > .run > [data-part="cost-chart"] rect.bar').count()).resolves.toBe(7);
    await expect(page.locator('main > .run > [data-part="cost-chart"] [data-part="run-cost"]').textContent()).resolves.toBe('$0.0333');

    // The sub-agent, nested under the tool call that ran it; its hostile answer shown as text.
    const subAgent = page.locator('li.tool[data-tool-call-id="policy-1"] details.sub-agent');
    await expect(subAgent.count()).resolves.toBe(1);
    await expect(subAgent.locator('[data-part="answer"] pre').textContent()).resolves.toBe(HOSTILE_POLICY);

    // Written with content: nothing on the page says it was not recorded (the failed calls included).
    expect(await page.locator('main').innerText()).not.toContain('not recorded');

    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.locator('main script, main img').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('the trace viewer in Chromium', () => {
  it('puts two attempts side by side, and shows a suspension and its resume', async () => {
    const { file, reAskId, approvalId } = await record('compare.jsonl', true);
    const server = await serve(file);
    const { page, errors } = await watchedPage(browser.context);
    await page.goto(`${server.url}?run=${reAskId}`);
    await card(page, 'step 3 · attempt 2').locator('a.compare-link').click();
    const pair = page.locator('[data-part="compare"] .pair article.attempt');
    await expect(pair.count()).resolves.toBe(2);
    await expect(pair.nth(0).locator('h3').textContent()).resolves.toBe('step 3 · attempt 1');
    await expect(pair.nth(1).locator('h3').textContent()).resolves.toBe('step 3 · attempt 2');
    const [left, right] = await Promise.all([pair.nth(0).boundingBox(), pair.nth(1).boundingBox()]);
    expect(left && right && right.x >= left.x + left.width && Math.abs(right.y - left.y) < 2).toBe(true);

    await page.goto(`${server.url}?run=${approvalId}`);
    await expect(page.locator('[data-part="suspended"]').textContent()).resolves.toContain('1 call(s) wait for approval (refund');
    await expect(page.locator('[data-part="resumed"]').textContent()).resolves.toContain('1 approved, 0 rejected');
    expect(errors).toEqual([]);
  });

  it('updates as the file grows, without a reload', async () => {
    const { file, trace } = await record('growing.jsonl', false);
    const server = await serve(file);
    const { page, errors } = await watchedPage(browser.context);
    await page.goto(server.url);
    await expect(page.locator('nav.runs a.run-link').count()).resolves.toBe(2);
    await page.evaluate(() => ((window as { __loaded?: boolean }).__loaded = true));
    const more = await recordApprovalRun(trace);
    await trace.flush();
    await page.locator(`nav.runs a.run-link[data-run-id="${more.runId}"]`).waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => (window as { __loaded?: boolean }).__loaded)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('without recordContent, no model text is in the file or on the page', async () => {
    const { file, reAskId } = await record('no-content.jsonl', false);
    const server = await serve(file);
    const { page, errors } = await watchedPage(browser.context);
    await page.goto(`${server.url}?run=${reAskId}`);
    const text = (await page.locator('body').innerText()) + readFileSync(file, 'utf8');
    for (const written of ['__pwned', 'not json', 'lots', 'Refunds up to', 'refund it', 'Can order A-1', '"amount":50', 'orderId']) expect(text).not.toContain(written);
    await expect(card(page, 'step 3 · attempt 2').locator('[data-part="feedback"]').textContent()).resolves.toContain('not recorded');
    await expect(card(page, 'step 3 · attempt 2').locator('[data-part="rule"]').textContent()).resolves.toBe('rule: schema-retry');
    await expect(card(page, 'step 3 · attempt 2').locator('[data-part="cost"]').textContent()).resolves.toBe('$0.006150');
    expect(errors).toEqual([]);
  });

  it('takes the screenshots of the docs from a trace made stable (fixed ids and times)', async () => {
    const { file } = await record('screenshots.jsonl', true);
    const stable = join(mkdtempSync(join(tmpdir(), 'keel-devtools-screenshots-')), 'support-runs.jsonl');
    writeStableTrace(file, stable);
    const server = await serve(stable);
    const { page, errors } = await watchedPage(browser.context);
    const reAskId = '00000000-0000-4000-8000-000000000001';
    await page.goto(`${server.url}?run=${reAskId}`);
    await page.screenshot({ path: join(IMAGES, 'devtools-run.png') });
    await page.locator('main > .run > .segment > section.step[data-step="3"]').screenshot({ path: join(IMAGES, 'devtools-attempts.png') });
    await page.goto(`${server.url}?run=${reAskId}&compare=4,5`);
    await page.locator('[data-part="compare"]').screenshot({ path: join(IMAGES, 'devtools-compare.png') });
    expect(errors).toEqual([]);
  });
});
