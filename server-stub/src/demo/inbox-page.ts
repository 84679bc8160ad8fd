// GET /__stub/inbox: the captured mail for people. Each HTML body is shown in a sandboxed frame
// (no allow-scripts) under a CSP without script-src: captured HTML cannot run script here.
import type { CapturedEmail } from '../context.js';
import { escapeHtml } from './html.js';

export const inboxContentSecurityPolicy =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'; base-uri 'none'; form-action 'none'";

const ADDRESS_FIELDS = ['from', 'from_name', 'to', 'cc', 'bcc', 'replyto'] as const;

function renderEmail(email: CapturedEmail): string {
  const { message } = email;
  const addresses = ADDRESS_FIELDS.filter((field) => message[field])
    .map((field) => `<dt>${field}</dt><dd>${escapeHtml(String(message[field]))}</dd>`)
    .join('');
  const attachment = message.attachment
    ? `<p class="attachment">Attachment: <a href="/__stub/emails/${encodeURIComponent(email.id)}/attachment" download>${escapeHtml(message.attachment.file_name)}</a> (${escapeHtml(message.attachment.mime_type)})</p>`
    : '';
  return `<article class="email" data-email-id="${escapeHtml(email.id)}">
  <h2>${escapeHtml(message.subject)}</h2>
  <p class="meta">Received ${escapeHtml(email.received_at)} for account ${escapeHtml(email.account)}</p>
  <dl>${addresses}</dl>
  <iframe sandbox title="Body of ${escapeHtml(message.subject)}" srcdoc="${escapeHtml(message.content ?? '')}"></iframe>
  ${attachment}
</article>`;
}

export function renderInbox(emails: CapturedEmail[]): string {
  const items = emails.length
    ? [...emails].reverse().map(renderEmail).join('\n')
    : '<p>No mail yet. Anything sent to POST /v1/email lands here.</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="5">
<title>Inbox (${emails.length}) — Sitebeam stub</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; }
.email { border: 1px solid #ccc; border-radius: 6px; padding: 1rem; margin: 1rem 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 1rem; }
dt { font-weight: 600; }
dd { margin: 0; }
iframe { width: 100%; min-height: 12rem; border: 1px solid #ddd; background: #fff; }
.meta { color: #555; font-size: .9rem; }
</style>
</head>
<body>
<h1>Inbox</h1>
<p>${emails.length} captured message(s), newest first. <a href="/">Back to the demo</a>. This page refreshes every 5 seconds.</p>
${items}
</body>
</html>`;
}
