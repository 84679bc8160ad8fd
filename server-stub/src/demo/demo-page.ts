// GET /: what is running, the tracker tag, the contact form and the chat in use, the latest visits
// and mail.
import { chatFields, chatLimits } from 'sitebeam/client';
import { escapeHtml } from './html.js';

export const demoContentSecurityPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'none'; base-uri 'none'; form-action 'self'";

export function renderDemoPage(origin: string, models: string[]): string {
  const api = escapeHtml(origin);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sitebeam stub — demo</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/demo.css">
<!-- Before the tag: deferred scripts run in order, so the page listens before the tag can answer. -->
<script defer src="/demo.js"></script>
<script defer src="/sitebeam.min.js" data-api="${api}" data-website="demo.sitebeam.test" data-track-localhost></script>
<script defer src="/sitebeam-form.min.js"></script>
<script defer src="/sitebeam-chat.min.js"></script>
</head>
<body>
<header>
  <h1>Sitebeam stub</h1>
  <p>The whole Sitebeam API contract, running at <code>${api}</code>. Models listed: <code>${escapeHtml(models.join(', '))}</code>.</p>
  <nav><a href="/__stub/inbox">Inbox</a> · <a href="/__stub/visits">Visits (JSON)</a> · <a href="/__stub/emails">Emails (JSON)</a> · <a href="/openapi.json">OpenAPI</a></nav>
</header>
<main>
<section aria-labelledby="your-visit">
  <h2 id="your-visit">Your visit, as the API recorded it</h2>
  <p>This page carries the tracker tag. The record it got back (the <code>sitebeam:track</code> event):</p>
  <pre id="own-visit">Waiting for the tracker…</pre>
</section>
<section aria-labelledby="contact">
  <h2 id="contact">Contact form</h2>
  <p>It posts to the relay at <code>/contact</code>, which holds the token and sends to the dev account's address.</p>
  <form data-sitebeam-form action="/contact" method="post">
    <p><label for="contact-name">Name</label><input id="contact-name" name="name" autocomplete="name" required maxlength="200"></p>
    <p><label for="contact-email">Email</label><input id="contact-email" name="email" type="email" autocomplete="email" required></p>
    <p><label for="contact-subject">Subject (optional)</label><input id="contact-subject" name="subject" maxlength="200"></p>
    <p><label for="contact-message">Message</label><textarea id="contact-message" name="message" rows="5" required maxlength="10000"></textarea></p>
    <p class="honeypot" aria-hidden="true"><label for="contact-homepage">Leave this empty</label><input id="contact-homepage" name="homepage" tabindex="-1" autocomplete="off"></p>
    <p><button type="submit">Send</button></p>
    <p data-sitebeam-status role="status" aria-live="polite"></p>
  </form>
</section>
<section aria-labelledby="chat">
  <h2 id="chat">Chat</h2>
  <p>It talks to the stub's models through the relay at <code>/chat</code>, which holds the token.</p>
  <sitebeam-chat action="/chat" data-text-send="Ask">
    <form action="/chat" method="post">
      <p><label for="chat-message">Your message</label><textarea id="chat-message" name="${chatFields.message}" rows="3" required maxlength="${chatLimits.messageMaxChars}"></textarea></p>
      <p><label for="chat-model">Model</label><select id="chat-model" name="${chatFields.model}">${models.map((model) => `<option>${escapeHtml(model)}</option>`).join('')}</select></p>
      <p class="honeypot" aria-hidden="true"><label for="chat-homepage">Leave this empty</label><input id="chat-homepage" name="homepage" tabindex="-1" autocomplete="off"></p>
      <p><button type="submit">Ask</button></p>
    </form>
  </sitebeam-chat>
</section>
<section aria-labelledby="visits">
  <h2 id="visits">Latest visits</h2>
  <table><thead><tr><th>Time (UTC)</th><th>Website</th><th>Browser</th><th>OS</th><th>Device</th><th>Country</th><th>Referrer</th></tr></thead>
  <tbody id="visit-rows"><tr><td colspan="7">None yet.</td></tr></tbody></table>
</section>
<section aria-labelledby="emails">
  <h2 id="emails">Latest emails</h2>
  <ul id="email-items"><li>None yet.</li></ul>
</section>
</main>
</body>
</html>`;
}
