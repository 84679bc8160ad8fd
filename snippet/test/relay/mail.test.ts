import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/relay/html.js';
import { composeEmail, composeSubject } from '../../src/relay/mail.js';
import { shopConfig } from './shop-relay.js';

const config = { ...shopConfig, siteName: 'Example Shop' };

describe('composeEmail', () => {
  const submission = {
    name: 'Ada <script>alert(1)</script>',
    email: 'ada@example.com',
    subject: 'Price & "terms"',
    message: "Line one\n<img src=x onerror=alert('x')>",
  };

  it('sends to the configured recipient as the configured sender, replying to the visitor', () => {
    const email = composeEmail(submission, config);
    expect(email.to).toBe('owner@shop.example');
    expect(email.from).toBe('forms@shop.example');
    expect(email.replyto).toBe('ada@example.com');
    expect(email.subject).toBe('[Example Shop] Price & "terms"');
  });

  it('escapes every visitor value in the HTML and keeps name, address and message in the body', () => {
    const content = composeEmail(submission, config).content ?? '';
    expect(content).not.toContain('<script');
    expect(content).not.toContain('<img');
    expect(content).toContain('Ada &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(content).toContain('ada@example.com');
    expect(content).toContain('Price &amp; &quot;terms&quot;');
    expect(content).toContain('Line one\n&lt;img src=x onerror=alert(&#39;x&#39;)&gt;');
  });

  it('makes a subject from the name when the visitor gave none', () => {
    expect(composeEmail({ ...submission, subject: '', name: 'Ada' }, config).subject).toBe(
      '[Example Shop] Message from Ada',
    );
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters and nothing else', () => {
    expect(escapeHtml(`<a href="x">'&'</a> é`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt; é',
    );
  });
});

describe('composeSubject', () => {
  it('keeps the subject within 998 characters by shortening the site name, never the subject', () => {
    const subject = 's'.repeat(200);
    const composed = composeSubject('Shop '.repeat(300), subject);
    expect([...composed].length).toBe(998);
    expect(composed.endsWith(`…] ${subject}`)).toBe(true);
    expect(composeSubject('Example Shop', 'Hi')).toBe('[Example Shop] Hi');
    expect([...composeSubject('é'.repeat(900), '😀'.repeat(200))].length).toBe(998);
  });
});
