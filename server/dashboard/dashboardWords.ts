// What the dashboard and its mail say, in Turkish and English: one table per language, so a missing translation is a
// type error. Other parts of the dashboard (keys, usage, billing, passkeys) keep their words in their own modules.
import { DASHBOARD_ENTRY, type SiteLanguage } from '../links.js';

export interface DashboardWords {
  siteName: string;
  dashboard: string;
  skipToContent: string;
  otherLanguage: string;
  nav: { home: string; keys: string; usage: string; billing: string; passkeys: string; docs: string };
  /** The home page's links to the API docs (/docs, /docs/api). */
  gettingStarted: string;
  apiReference: string;
  footer: string;
  // Sign-in
  signInTitle: string;
  signInLede: string;
  newHere: string;
  emailLabel: string;
  sendCode: string;
  checkMailTitle: string;
  checkMail: (email: string, minutes: number) => string;
  codeLabel: string;
  signIn: string;
  orLink: string;
  anotherAddress: string;
  sendLimited: string;
  badEmail: string;
  badCode: string;
  noPendingCode: string;
  codeExpired: string;
  codeUsed: string;
  codeLocked: string;
  wrongCode: (left: number) => string;
  linkTitle: (email: string) => string;
  linkLede: string;
  linkNone: string;
  linkExpired: string;
  linkUsed: string;
  linkLocked: string;
  askAgain: string;
  mailFailed: string;
  // Home
  account: string;
  email: string;
  plan: string;
  planLimits: (perMinute: string, perMonth: string) => string;
  planNames: Record<'trial' | 'pro' | 'business', string>;
  signOut: string;
  signedOutNotice: string;
  // Refusals
  csrfTitle: string;
  csrfText: string;
  sessionEnded: string;
  notFoundTitle: string;
  notFoundText: string;
  tooLargeTitle: string;
  tooLargeText: string;
  badRequestTitle: string;
  wrongType: string;
  methodNotAllowed: string;
  errorTitle: string;
  /** A page that needs the shared store (fleet mode's Redis) while it cannot be reached. */
  unavailableTitle: string;
  unavailableText: string;
  // Mail
  mailSubject: (code: string) => string;
  mailText: (code: string, link: string, minutes: number) => string;
  mailIntro: string;
  mailLinkText: string;
  mailIgnore: (minutes: number) => string;
}

export const DASHBOARD_WORDS: Readonly<Record<SiteLanguage, DashboardWords>> = {
  en: {
    siteName: 'Prayer Times',
    dashboard: 'Dashboard',
    skipToContent: 'Skip to content',
    otherLanguage: 'Türkçe',
    nav: { home: 'Dashboard', keys: 'Keys', usage: 'Usage', billing: 'Billing', passkeys: 'Passkeys', docs: 'API docs' },
    gettingStarted: 'Getting started with the API',
    apiReference: 'API reference',
    footer: 'The developer dashboard of the Prayer Times API.',
    signInTitle: DASHBOARD_ENTRY.en,
    signInLede: 'Enter your e-mail address: we send you a 6-digit code and a link. There is no password.',
    newHere: 'New here? The same form opens a trial account on your first sign-in.',
    emailLabel: 'E-mail address',
    sendCode: 'Send the code',
    checkMailTitle: 'Check your mail',
    checkMail: (email, minutes) =>
      `If ${email} can sign in, we sent a code to it. Enter it below within ${minutes} minutes, in this browser.`,
    codeLabel: '6-digit code',
    signIn: 'Sign in',
    orLink: 'Or open the link in the message, on any device.',
    anotherAddress: 'Use another address',
    sendLimited: 'Too many codes were asked for this address or from your network in the last hour. Use a code already sent, or try again later.',
    badEmail: 'That is not an e-mail address. Check it and try again.',
    badCode: 'A code is 6 digits.',
    noPendingCode: 'No sign-in is waiting in this browser. Ask for a new code.',
    codeExpired: 'This code has expired (codes work for 10 minutes). Ask for a new one.',
    codeUsed: 'This code has already been used. Ask for a new one.',
    codeLocked: 'Too many wrong codes: this code no longer works. Ask for a new one.',
    wrongCode: (left) =>
      left === 0
        ? 'That code is not right, and it was the last try: this code no longer works. Ask for a new one.'
        : `That code is not right. ${left} ${left === 1 ? 'try' : 'tries'} left.`,
    linkTitle: (email) => `Sign in as ${email}?`,
    linkLede: 'Press the button to sign in in this browser. The link works once.',
    linkNone: 'This sign-in link is not known. Ask for a new one.',
    linkExpired: 'This sign-in link has expired (links work for 10 minutes). Ask for a new one.',
    linkUsed: 'This sign-in link has already been used. Ask for a new one.',
    linkLocked: 'Too many wrong codes were tried for this sign-in: its link no longer works. Ask for a new one.',
    askAgain: 'Ask for a new code',
    mailFailed: 'We could not send the message just now. Try again in a minute.',
    account: 'Your account',
    email: 'E-mail',
    plan: 'Plan',
    planLimits: (perMinute, perMonth) => `${perMinute} requests a minute, ${perMonth} a month`,
    planNames: { trial: 'Trial', pro: 'Pro', business: 'Business' },
    signOut: 'Sign out',
    signedOutNotice: 'You are signed out.',
    csrfTitle: 'Request refused',
    csrfText: 'This form could not be checked as coming from this site (an old page, or cookies turned off). Go back, reload the page and try again.',
    sessionEnded: 'Your session has ended. Sign in again.',
    notFoundTitle: 'Page not found',
    notFoundText: 'There is no dashboard page at this address.',
    tooLargeTitle: 'Too large',
    tooLargeText: 'What was sent is larger than this form takes.',
    badRequestTitle: 'Not understood',
    wrongType: 'This form was sent in a way it does not take.',
    methodNotAllowed: 'This page does not take that kind of request.',
    errorTitle: 'Something went wrong',
    unavailableTitle: 'Temporarily unavailable',
    unavailableText: 'This page cannot be reached for a moment. Nothing was changed; try again in a few seconds.',
    mailSubject: (code) => `${code} is your Prayer Times sign-in code`,
    mailText: (code, link, minutes) =>
      `Your sign-in code: ${code}\n\nOr open this link to sign in:\n${link}\n\nThe code and the link work once, for ${minutes} minutes.\nIf you did not ask to sign in, ignore this message.\n`,
    mailIntro: 'Your sign-in code for the Prayer Times dashboard:',
    mailLinkText: 'Or sign in with this link',
    mailIgnore: (minutes) => `The code and the link work once, for ${minutes} minutes. If you did not ask to sign in, ignore this message.`,
  },
  tr: {
    siteName: 'Namaz Vakitleri',
    dashboard: 'Panel',
    skipToContent: 'İçeriğe geç',
    otherLanguage: 'English',
    nav: { home: 'Panel', keys: 'Anahtarlar', usage: 'Kullanım', billing: 'Ödeme', passkeys: 'Geçiş anahtarları', docs: 'API belgeleri' },
    gettingStarted: 'API’ye başlarken',
    apiReference: 'API başvurusu',
    footer: 'Namaz Vakitleri API’sinin geliştirici paneli.',
    signInTitle: DASHBOARD_ENTRY.tr,
    signInLede: 'E-posta adresinizi yazın: size 6 haneli bir kod ve bir bağlantı gönderelim. Parola yoktur.',
    newHere: 'Yeni misiniz? İlk girişinizde aynı form bir deneme hesabı açar.',
    emailLabel: 'E-posta adresi',
    sendCode: 'Kodu gönder',
    checkMailTitle: 'E-postanıza bakın',
    checkMail: (email, minutes) =>
      `${email} ile giriş yapılabiliyorsa bu adrese bir kod gönderdik. Kodu ${minutes} dakika içinde, bu tarayıcıda aşağıya yazın.`,
    codeLabel: '6 haneli kod',
    signIn: 'Giriş yap',
    orLink: 'Ya da iletideki bağlantıyı herhangi bir cihazda açın.',
    anotherAddress: 'Başka bir adres kullan',
    sendLimited: 'Son bir saatte bu adres için ya da ağınızdan çok fazla kod istendi. Gönderilmiş bir kodu kullanın ya da daha sonra yeniden deneyin.',
    badEmail: 'Bu bir e-posta adresi değil. Denetleyip yeniden deneyin.',
    badCode: 'Kod 6 rakamdan oluşur.',
    noPendingCode: 'Bu tarayıcıda bekleyen bir giriş yok. Yeni bir kod isteyin.',
    codeExpired: 'Bu kodun süresi doldu (kodlar 10 dakika geçerlidir). Yeni bir kod isteyin.',
    codeUsed: 'Bu kod zaten kullanıldı. Yeni bir kod isteyin.',
    codeLocked: 'Çok fazla yanlış kod girildi: bu kod artık geçmiyor. Yeni bir kod isteyin.',
    wrongCode: (left) =>
      left === 0
        ? 'Kod yanlış ve bu son denemeydi: bu kod artık geçmiyor. Yeni bir kod isteyin.'
        : `Kod yanlış. ${left} deneme hakkınız kaldı.`,
    linkTitle: (email) => `${email} olarak giriş yapılsın mı?`,
    linkLede: 'Bu tarayıcıda giriş yapmak için düğmeye basın. Bağlantı bir kez kullanılabilir.',
    linkNone: 'Bu giriş bağlantısı tanınmıyor. Yeni bir bağlantı isteyin.',
    linkExpired: 'Bu giriş bağlantısının süresi doldu (bağlantılar 10 dakika geçerlidir). Yeni bir bağlantı isteyin.',
    linkUsed: 'Bu giriş bağlantısı zaten kullanıldı. Yeni bir bağlantı isteyin.',
    linkLocked: 'Bu giriş için çok fazla yanlış kod denendi: bağlantısı artık geçmiyor. Yeni bir bağlantı isteyin.',
    askAgain: 'Yeni kod iste',
    mailFailed: 'İleti şu anda gönderilemedi. Bir dakika sonra yeniden deneyin.',
    account: 'Hesabınız',
    email: 'E-posta',
    plan: 'Plan',
    planLimits: (perMinute, perMonth) => `dakikada ${perMinute}, ayda ${perMonth} istek`,
    planNames: { trial: 'Deneme', pro: 'Pro', business: 'Business' },
    signOut: 'Çıkış yap',
    signedOutNotice: 'Çıkış yaptınız.',
    csrfTitle: 'İstek reddedildi',
    csrfText: 'Bu formun bu siteden geldiği doğrulanamadı (eski bir sayfa ya da kapalı çerezler). Geri dönün, sayfayı yenileyin ve yeniden deneyin.',
    sessionEnded: 'Oturumunuz sona erdi. Yeniden giriş yapın.',
    notFoundTitle: 'Sayfa bulunamadı',
    notFoundText: 'Bu adreste bir panel sayfası yok.',
    tooLargeTitle: 'Çok büyük',
    tooLargeText: 'Gönderilen, bu formun kabul ettiğinden büyük.',
    badRequestTitle: 'Anlaşılamadı',
    wrongType: 'Bu form, kabul etmediği bir biçimde gönderildi.',
    methodNotAllowed: 'Bu sayfa bu tür bir isteği kabul etmez.',
    errorTitle: 'Bir şeyler ters gitti',
    unavailableTitle: 'Geçici olarak kullanılamıyor',
    unavailableText: 'Bu sayfaya şu an ulaşılamıyor. Hiçbir şey değiştirilmedi; birkaç saniye sonra yeniden deneyin.',
    mailSubject: (code) => `Namaz Vakitleri giriş kodunuz: ${code}`,
    mailText: (code, link, minutes) =>
      `Giriş kodunuz: ${code}\n\nYa da giriş yapmak için bu bağlantıyı açın:\n${link}\n\nKod ve bağlantı bir kez, ${minutes} dakika boyunca geçerlidir.\nGiriş yapmak istemediyseniz bu iletiyi dikkate almayın.\n`,
    mailIntro: 'Namaz Vakitleri paneli için giriş kodunuz:',
    mailLinkText: 'Ya da bu bağlantıyla giriş yapın',
    mailIgnore: (minutes) => `Kod ve bağlantı bir kez, ${minutes} dakika boyunca geçerlidir. Giriş yapmak istemediyseniz bu iletiyi dikkate almayın.`,
  },
};
