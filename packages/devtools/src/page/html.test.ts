import { describe, expect, it } from 'vitest';
import { escapeHtml } from '@keel/core/internal';
import { formatUsd, html } from './html';

describe('html', () => {
  it('escapes every interpolated value, in content and attributes', () => {
    const hostile = `<script>alert(1)</script>" onmouseover='x' \`y\` &amp;`;
    const out = html`<p title="${hostile}">${hostile}</p>`.html;
    expect(out).not.toContain('<script>');
    expect(out).toBe(`<p title="${escapeHtml(hostile)}">${escapeHtml(hostile)}</p>`);
    expect(escapeHtml(hostile)).toBe('&lt;script&gt;alert(1)&lt;/script&gt;&quot; onmouseover=&#39;x&#39; &#96;y&#96; &amp;amp;');
  });

  it('inserts nested templates and lists as markup, and no look-alike object', () => {
    expect(html`<ul>${['a<', 'b'].map((item) => html`<li>${item}</li>`)}</ul>`.html).toBe('<ul><li>a&lt;</li><li>b</li></ul>');
    expect(html`${{ html: '<b>', extra: 1 }}`.html).toBe('[object Object]');
    expect(html`${undefined}${null}${false}${0}`.html).toBe('0');
  });

  it('formats dollars with the digits a call needs', () => {
    expect(formatUsd(0.0042)).toBe('$0.004200');
    expect(formatUsd(0.0321)).toBe('$0.0321');
    expect(formatUsd(12.5)).toBe('$12.50');
  });
});
