import { contactDefaults } from 'sitebeam/client';
import { describe, expect, it } from 'vitest';
import { useTestStub } from './helpers.js';

const stub = useTestStub();

describe('GET /__stub/inbox', () => {
  it('shows each message escaped, its HTML body in a sandboxed frame, under a CSP without scripts', async () => {
    await stub.client.sendEmail({
      to: 'owner@example.com',
      bcc: 'hidden@example.com',
      subject: '<img src=x onerror=alert(1)>',
      content: '<p>Hello</p><script>document.title="pwned"</script>',
      attachment: {
        mime_type: 'text/html',
        file_name: 'a"b.html',
        b64: Buffer.from('<script>alert(1)</script>').toString('base64'),
      },
    });
    const response = await stub.request('/__stub/inbox');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    const html = await response.text();
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>');
    expect(html).toMatch(
      /<iframe sandbox title="[^"]*" srcdoc="&lt;p&gt;Hello&lt;\/p&gt;&lt;script&gt;/,
    );
    expect(html).not.toMatch(/allow-scripts/);
    expect(html).toContain('hidden@example.com');
    expect(html).toMatch(
      /href="\/__stub\/emails\/[0-9a-f-]+\/attachment" download>a&quot;b\.html</,
    );
  });

  it('serves an attachment as a sandboxed download, never rendered on the stub origin', async () => {
    const { emails } = (await (await stub.request('/__stub/emails')).json()) as {
      emails: Array<{ id: string }>;
    };
    const download = await stub.request(`/__stub/emails/${emails[0]?.id}/attachment`);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename*=UTF-8''a%22b.html`,
    );
    expect(download.headers.get('content-security-policy')).toBe('sandbox');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('GET / (demo page)', () => {
  it('carries the tracker tag and the contact form, under a strict CSP, and never the token', async () => {
    const response = await stub.request('/');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    expect(html).toContain(`<script defer src="/sitebeam.min.js" data-api="${stub.url}"`);
    expect(html).toContain('<form data-sitebeam-form action="/contact" method="post">');
    expect(html).not.toContain('dev-token');
  });

  it('serves its script and style', async () => {
    expect((await stub.request('/demo.js')).headers.get('content-type')).toMatch(
      /^text\/javascript/,
    );
    expect((await stub.request('/demo.css')).headers.get('content-type')).toMatch(/^text\/css/);
  });
});

describe('POST /contact (the demo relay)', () => {
  it('sends the visitor’s message to the dev account through the API, escaped, token kept server-side', async () => {
    await stub.request('/__stub/emails', { method: 'DELETE' });
    // The fill-time ticket the relay issues, old enough once the minimum fill time has passed.
    const { ticket } = await (
      await stub.request('/contact', { headers: { origin: stub.url } })
    ).json();
    await new Promise((resolve) => setTimeout(resolve, contactDefaults.minFillMs));
    const response = await stub.request('/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stub.url },
      body: JSON.stringify({
        name: 'Ann',
        email: 'ann@example.org',
        message: 'Hi <script>alert(1)</script>',
        homepage: '',
        ticket,
      }),
    });
    const answer = await response.text();
    expect(response.status, answer).toBe(200);
    expect(answer).not.toContain('dev-token');
    const { emails } = (await (await stub.request('/__stub/emails')).json()) as {
      emails: Array<{ message: Record<string, string> }>;
    };
    expect(emails).toHaveLength(1);
    expect(emails[0]?.message).toMatchObject({
      to: 'dev@example.com',
      replyto: 'ann@example.org',
    });
    expect(emails[0]?.message.content).toContain('Hi &lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
