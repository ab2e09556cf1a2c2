import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supportAgent } from '../approvals';
import type { RouteServer } from '../node-route-server';
import { deskTarget, POLICY_ANSWER } from './desk-model';
import { startChatApp } from './server';

/** Debian's Chromium (scripts/ensure-chromium.mjs installs it); no browser is ever downloaded. */
const CHROMIUM_PATH = process.env.KEEL_CHROMIUM_PATH ?? '/usr/bin/chromium';

let context: BrowserContext;
let profile: string;
const apps: RouteServer[] = [];

beforeAll(async () => {
  profile = mkdtempSync(join(tmpdir(), 'keel-chat-app-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 60_000);
afterAll(async () => {
  await context?.close();
  await Promise.all(apps.map((app) => app.close()));
  rmSync(profile, { recursive: true, force: true });
});

/** The chat app on the scripted desk model, and a fresh page on it whose errors are collected. */
async function open(delayMs?: number) {
  const target = deskTarget(delayMs === undefined ? {} : { delayMs });
  const { agent, refunds } = supportAgent(target);
  const app = await startChatApp({ agent });
  apps.push(app);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${app.url}/`);
  return { page, errors, refunds, calls: target.calls };
}

async function ask(page: Page, question: string): Promise<void> {
  await page.getByLabel('Message').fill(question);
  await page.getByRole('button', { name: 'Send' }).click();
}

const assistantText = (page: Page) => page.locator('[data-role="assistant"] [data-part="text"]');
const refundCall = (page: Page) => page.locator('[data-part="tool"][data-tool="refund"]');
const QUESTION = 'My order A-1001 arrived damaged. I want my money back.';

describe('the chat app in Chromium: useChat against the route, a scripted model', () => {
  it('streams the text, waits for Approve, then shows the refund and the answer: the refund ran once', async () => {
    const { page, errors, refunds, calls } = await open();
    await ask(page, QUESTION);
    await expect.poll(() => assistantText(page).first().textContent()).toBe('Let me look up order A-1001.');
    await refundCall(page).getByRole('button', { name: 'Approve' }).waitFor();
    expect(refunds).toEqual([]);
    await expect(page.locator('[data-part="tool"][data-tool="lookup_order"] [data-part="output"]').textContent()).resolves.toContain('delivered damaged');

    await refundCall(page).getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => refundCall(page).getAttribute('data-state')).toBe('output-available');
    await expect(refundCall(page).locator('[data-part="output"]').textContent()).resolves.toBe(' → refunded $120 on A-1001');
    await expect.poll(() => assistantText(page).last().textContent()).toBe('Your order A-1001 has been refunded in full ($120).');
    await expect.poll(() => page.locator('main').getAttribute('data-status')).toBe('ready');
    expect(refunds).toEqual([{ orderId: 'A-1001', amount: 120 }]);
    // Lookup, refund, answer: the suspended step was not asked again.
    expect(calls()).toBe(3);
    expect(errors).toEqual([]);
  }, 60_000);

  it('with Reject, refunds nothing and shows the denial and the answer', async () => {
    const { page, errors, refunds, calls } = await open();
    await ask(page, QUESTION);
    await refundCall(page).getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => refundCall(page).getAttribute('data-state')).toBe('output-denied');
    await expect(refundCall(page).locator('[data-part="denied"]').textContent()).resolves.toBe(' → denied: a person rejected the refund');
    await expect.poll(() => assistantText(page).last().textContent()).toContain('I could not refund order A-1001');
    await expect.poll(() => page.locator('main').getAttribute('data-status')).toBe('ready');
    expect(refunds).toEqual([]);
    expect(calls()).toBe(3);
    expect(errors).toEqual([]);
  }, 60_000);

  it('shows the rest of an answer after a reload in its middle, with no second model call', async () => {
    const { page, errors, calls } = await open(150);
    await ask(page, 'What is your refund policy?');
    await expect.poll(() => assistantText(page).first().textContent()).toMatch(/^Damaged/);
    const before = (await assistantText(page).first().textContent()) ?? '';
    expect(before.length).toBeLessThan(POLICY_ANSWER.length / 2);

    await page.reload();
    await expect.poll(() => assistantText(page).first().textContent(), { timeout: 20_000 }).toBe(POLICY_ANSWER);
    await expect(page.locator('[data-role="user"]').count()).resolves.toBe(1);
    await expect(page.locator('[data-role="assistant"]').count()).resolves.toBe(1);
    expect(calls()).toBe(1);
    expect(errors).toEqual([]);
  }, 60_000);
});
