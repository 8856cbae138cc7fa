// The sign-in message: the code and the confirmation link, as plain text and simple HTML, in the user's language.
import type { SiteLanguage } from '../../links.js';
import { html } from '../../web/html.js';
import { DASHBOARD_WORDS } from '../dashboardWords.js';
import type { MailMessage } from './mailer.js';

export function signInMessage(language: SiteLanguage, to: string, code: string, link: string, ttlMs: number): MailMessage {
  const w = DASHBOARD_WORDS[language];
  const minutes = Math.max(1, Math.round(ttlMs / 60_000));
  const body = html`<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><title>${w.mailSubject(code)}</title></head>
<body>
<p>${w.mailIntro}</p>
<p><strong>${code}</strong></p>
<p><a href="${link}">${w.mailLinkText}</a></p>
<p>${w.mailIgnore(minutes)}</p>
</body></html>
`;
  return { to, subject: w.mailSubject(code), text: w.mailText(code, link, minutes), html: body.text, code };
}
