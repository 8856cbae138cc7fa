// The quota message (issue 32): the month's use passed 80% or 100% of the plan's quota. An account keeps no
// language, so the message is in English and then in Turkish, as plain text and simple HTML, with the numbers, when
// the quota resets, and the dashboard's usage and billing pages.
import type { QuotaAlert } from '../../access/quotaAlerts.js';
import { html } from '../../web/html.js';
import { DASHBOARD_PATHS } from '../dashboardPaths.js';
import type { MailMessage } from './mailer.js';

const en = (n: number): string => n.toLocaleString('en-GB');
const tr = (n: number): string => n.toLocaleString('tr-TR');

export function quotaMessage(alert: QuotaAlert, publicBaseUrl: string): MailMessage {
  const usage = `${publicBaseUrl}${DASHBOARD_PATHS.usage}`;
  const billing = `${publicBaseUrl}${DASHBOARD_PATHS.billing}`;
  const full = alert.level === 100;
  const subject = full
    ? `Your monthly API quota is used up (${alert.month}) · Aylık API kotanız doldu`
    : `You have used 80% of your monthly API quota (${alert.month}) · Aylık API kotanızın %80’ini kullandınız`;
  const english = full
    ? `Your account (${alert.account.plan} plan) has used all ${en(alert.limit)} requests of its quota for ${alert.month} (UTC). Until the quota resets at ${alert.resets}, the API answers your keys with 429 quota_exceeded.`
    : `Your account (${alert.account.plan} plan) has used ${en(alert.used)} of its ${en(alert.limit)} requests for ${alert.month} (UTC), 80% of its quota. At ${en(alert.limit)} the API answers your keys with 429 quota_exceeded until the quota resets at ${alert.resets}.`;
  const turkish = full
    ? `Hesabınız (${alert.account.plan} planı) ${alert.month} (UTC) ayı kotasının ${tr(alert.limit)} isteğinin tamamını kullandı. Kota ${alert.resets} anında sıfırlanana kadar API anahtarlarınıza 429 quota_exceeded ile yanıt verir.`
    : `Hesabınız (${alert.account.plan} planı) ${alert.month} (UTC) ayı için ${tr(alert.limit)} isteğin ${tr(alert.used)} tanesini, kotasının %80’ini kullandı. ${tr(alert.limit)} isteğe ulaşınca kota ${alert.resets} anında sıfırlanana kadar API anahtarlarınıza 429 quota_exceeded ile yanıt verir.`;
  const seeEn = `See your usage by key and operation: ${usage}\nMove to a larger plan: ${billing}`;
  const seeTr = `Anahtara ve işleme göre kullanımınız: ${usage}\nDaha büyük bir plana geçin: ${billing}`;
  const once = 'You get this message once a month for each level (80% and 100%).';
  const onceTr = 'Bu iletiyi her düzey için (%80 ve %100) ayda bir kez alırsınız.';
  const text = `${english}\n\n${seeEn}\n\n${once}\n\n---\n\n${turkish}\n\n${seeTr}\n\n${onceTr}\n`;
  const body = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${subject}</title></head>
<body>
<p>${english}</p>
<p><a href="${usage}">See your usage by key and operation</a> · <a href="${billing}">Move to a larger plan</a></p>
<p>${once}</p>
<hr>
<div lang="tr">
<p>${turkish}</p>
<p><a href="${usage}">Anahtara ve işleme göre kullanımınız</a> · <a href="${billing}">Daha büyük bir plana geçin</a></p>
<p>${onceTr}</p>
</div>
</body></html>
`;
  return { to: alert.account.email, subject, text, html: body.text };
}
