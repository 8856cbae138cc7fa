// What the billing pages say, in Turkish and English: one table per language, so a missing translation is a type error.
import type { SubscriptionStatus } from '../../accounts/billingStore.js';
import type { PlanName } from '../../accounts/plans.js';
import type { SiteLanguage } from '../../links.js';

export interface BillingWords {
  title: string;
  currentPlan: string;
  limits: string;
  planLimits: (perMinute: string, perMonth: string) => string;
  planNames: Record<PlanName, string>;
  /** The plan table's price: "Price", a paid plan's "9 USD a month", the trial's (free, and whether it ends). */
  price: string;
  monthlyPrice: (amount: string) => string;
  trialPrice: string;
  /** The checkout's line under the plan: what is charged, and when. */
  checkoutCharge: (amount: string) => string;
  status: string;
  statuses: Record<SubscriptionStatus, string>;
  periodEnd: string;
  cancelNote: (date: string) => string;
  /** The status of a live subscription cancelled at its period's end (not "Active"): the plan, until when. */
  cancelledUntil: (plan: string, date: string) => string;
  paymentFailed: (date: string) => string;
  choosePlan: string;
  subscribeTo: (plan: string) => string;
  manage: string;
  manageHint: string;
  checkoutDone: string;
  checkoutCancelled: string;
  noSubscription: string;
  badPlan: string;
  providerFailed: string;
  testBanner: string;
  // The local provider's pages
  testCheckoutTitle: string;
  testCheckoutLede: string;
  subscription: (plan: string) => string;
  pay: string;
  payFailing: string;
  cancel: string;
  declined: string;
  sessionInvalid: string;
  alreadySubscribed: string;
  sessionUsed: string;
  backToBilling: string;
  testPortalTitle: string;
  testPortalLede: string;
  switchTo: (plan: string) => string;
  cancelAtPeriodEnd: string;
  resume: string;
  payNow: string;
  simulatePeriodEnd: string;
  simulatePeriodEndFailing: string;
  endNow: string;
  nothingToManage: string;
  notPossible: string;
  // Asking before cancelling or ending (confirmPage.ts).
  cancelQuestion: (plan: string) => string;
  cancelConsequence: (date: string) => string;
  endQuestion: (plan: string) => string;
  endConsequence: string;
  endConfirm: string;
  keepSubscription: string;
}

const STATUSES_EN: Record<SubscriptionStatus, string> = {
  none: 'No subscription',
  incomplete: 'Awaiting payment',
  incomplete_expired: 'Payment not completed',
  active: 'Active',
  trialing: 'Active (trial period)',
  past_due: 'Payment overdue',
  unpaid: 'Unpaid',
  paused: 'Paused',
  canceled: 'Ended',
};

const STATUSES_TR: Record<SubscriptionStatus, string> = {
  none: 'Abonelik yok',
  incomplete: 'Ödeme bekleniyor',
  incomplete_expired: 'Ödeme tamamlanmadı',
  active: 'Etkin',
  trialing: 'Etkin (deneme süresi)',
  past_due: 'Ödeme gecikti',
  unpaid: 'Ödenmedi',
  paused: 'Duraklatıldı',
  canceled: 'Sona erdi',
};

export const BILLING_WORDS: Readonly<Record<SiteLanguage, BillingWords>> = {
  en: {
    title: 'Plan and billing',
    currentPlan: 'Current plan',
    limits: 'Limits',
    planLimits: (perMinute, perMonth) => `${perMinute} requests a minute, ${perMonth} a month`,
    planNames: { trial: 'Trial', pro: 'Pro', business: 'Business' },
    price: 'Price',
    monthlyPrice: (amount) => `${amount} USD a month`,
    trialPrice: 'Free, no card; the trial does not end',
    checkoutCharge: (amount) => `${amount} USD now, then every month until you cancel.`,
    status: 'Subscription',
    statuses: STATUSES_EN,
    periodEnd: 'Current period ends',
    cancelNote: (date) => `Your subscription is cancelled: the plan stays until ${date}, then the account returns to Trial.`,
    cancelledUntil: (plan, date) => `Cancelled: ${plan} until ${date}, then Trial`,
    paymentFailed: (date) => `Your payment of ${date} failed. The plan stays while the payment provider retries; update your payment method to keep it.`,
    choosePlan: 'Choose a plan',
    subscribeTo: (plan) => `Subscribe to ${plan}`,
    manage: 'Manage subscription',
    manageHint: 'Change plan, payment method or cancel at the payment provider.',
    checkoutDone: 'Thank you. Your plan changes as soon as the payment provider confirms the payment.',
    checkoutCancelled: 'The checkout was cancelled; nothing was charged.',
    noSubscription: 'There is no subscription to manage yet.',
    badPlan: 'Choose the Pro or Business plan.',
    providerFailed: 'The payment provider could not be reached. Please try again in a moment.',
    testBanner: 'TEST MODE: payments are simulated by the built-in local provider; no card is charged.',
    testCheckoutTitle: 'Test checkout',
    testCheckoutLede: 'This is a test checkout: no card is charged.',
    subscription: (plan) => `${plan} plan, monthly subscription`,
    pay: 'Pay',
    payFailing: 'Pay with a failing card',
    cancel: 'Cancel',
    declined: 'The card was declined (test). Nothing was charged; try again.',
    sessionInvalid: 'This checkout has expired or is not yours. Start again from the billing page.',
    alreadySubscribed: 'You already have a subscription: manage it from the billing page.',
    sessionUsed: 'This checkout was completed already.',
    backToBilling: 'Back to billing',
    testPortalTitle: 'Test subscription portal',
    testPortalLede: 'This is a test portal of the built-in local provider: no card is charged.',
    switchTo: (plan) => `Switch to ${plan}`,
    cancelAtPeriodEnd: 'Cancel at period end',
    resume: 'Resume subscription',
    payNow: 'Pay the overdue invoice',
    simulatePeriodEnd: 'Simulate period end (renewal paid)',
    simulatePeriodEndFailing: 'Simulate period end (renewal payment fails)',
    endNow: 'End subscription now (as if the provider ended it)',
    nothingToManage: 'There is no active subscription to manage.',
    notPossible: 'That action is not possible for this subscription now.',
    cancelQuestion: (plan) => `Cancel the ${plan} subscription at the end of the period?`,
    cancelConsequence: (date) => `No more payments: the plan stays until ${date}, then the account returns to Trial and its limits. Until then you can resume the subscription here.`,
    endQuestion: (plan) => `End the ${plan} subscription now?`,
    endConsequence: 'This cannot be undone: the subscription ends at once, as if the provider had ended it, and the account returns to Trial and its limits now. Subscribing again is a new checkout.',
    endConfirm: 'End the subscription now',
    keepSubscription: 'Keep it: back to the portal',
  },
  tr: {
    title: 'Plan ve ödeme',
    currentPlan: 'Geçerli plan',
    limits: 'Sınırlar',
    planLimits: (perMinute, perMonth) => `dakikada ${perMinute}, ayda ${perMonth} istek`,
    planNames: { trial: 'Deneme', pro: 'Pro', business: 'Business' },
    price: 'Fiyat',
    monthlyPrice: (amount) => `aylık ${amount} USD`,
    trialPrice: 'Ücretsiz, kart istenmez; deneme planının süresi dolmaz',
    checkoutCharge: (amount) => `Şimdi ${amount} USD, sonra iptal edene dek her ay.`,
    status: 'Abonelik',
    statuses: STATUSES_TR,
    periodEnd: 'Geçerli dönemin sonu',
    cancelNote: (date) => `Aboneliğiniz iptal edildi: plan ${date} tarihine kadar sürer, sonra hesap Deneme planına döner.`,
    cancelledUntil: (plan, date) => `İptal edildi: ${date} tarihine kadar ${plan}, sonra Deneme`,
    paymentFailed: (date) => `${date} tarihli ödemeniz başarısız oldu. Ödeme sağlayıcısı yeniden denerken plan sürer; korumak için ödeme yönteminizi güncelleyin.`,
    choosePlan: 'Plan seçin',
    subscribeTo: (plan) => `${plan} planına abone ol`,
    manage: 'Aboneliği yönet',
    manageHint: 'Planı, ödeme yöntemini değiştirin ya da ödeme sağlayıcısında iptal edin.',
    checkoutDone: 'Teşekkürler. Planınız, ödeme sağlayıcısı ödemeyi onaylar onaylamaz değişir.',
    checkoutCancelled: 'Ödeme iptal edildi; hiçbir ücret alınmadı.',
    noSubscription: 'Henüz yönetilecek bir abonelik yok.',
    badPlan: 'Pro ya da Business planını seçin.',
    providerFailed: 'Ödeme sağlayıcısına ulaşılamadı. Lütfen birazdan yeniden deneyin.',
    testBanner: 'TEST KİPİ: ödemeler yerleşik yerel sağlayıcıyla taklit edilir; karttan ücret alınmaz.',
    testCheckoutTitle: 'Test ödemesi',
    testCheckoutLede: 'Bu bir test ödemesidir: karttan ücret alınmaz.',
    subscription: (plan) => `${plan} planı, aylık abonelik`,
    pay: 'Öde',
    payFailing: 'Reddedilen bir kartla öde',
    cancel: 'Vazgeç',
    declined: 'Kart reddedildi (test). Ücret alınmadı; yeniden deneyin.',
    sessionInvalid: 'Bu ödeme oturumunun süresi doldu ya da size ait değil. Ödeme sayfasından yeniden başlayın.',
    alreadySubscribed: 'Zaten bir aboneliğiniz var: ödeme sayfasından yönetin.',
    sessionUsed: 'Bu ödeme zaten tamamlandı.',
    backToBilling: 'Ödeme sayfasına dön',
    testPortalTitle: 'Test abonelik portalı',
    testPortalLede: 'Bu, yerleşik yerel sağlayıcının test portalıdır: karttan ücret alınmaz.',
    switchTo: (plan) => `${plan} planına geç`,
    cancelAtPeriodEnd: 'Dönem sonunda iptal et',
    resume: 'Aboneliği sürdür',
    payNow: 'Gecikmiş faturayı öde',
    simulatePeriodEnd: 'Dönem sonunu taklit et (yenileme ödendi)',
    simulatePeriodEndFailing: 'Dönem sonunu taklit et (yenileme ödemesi başarısız)',
    endNow: 'Aboneliği şimdi bitir (sağlayıcı bitirmiş gibi)',
    nothingToManage: 'Yönetilecek etkin bir abonelik yok.',
    notPossible: 'Bu işlem bu abonelik için şu an yapılamaz.',
    cancelQuestion: (plan) => `${plan} aboneliği dönem sonunda iptal edilsin mi?`,
    cancelConsequence: (date) => `Başka ödeme alınmaz: plan ${date} tarihine kadar sürer, sonra hesap Deneme planına ve sınırlarına döner. O zamana kadar aboneliği buradan sürdürebilirsiniz.`,
    endQuestion: (plan) => `${plan} aboneliği şimdi bitirilsin mi?`,
    endConsequence: 'Bu geri alınamaz: abonelik, sağlayıcı bitirmiş gibi hemen sona erer ve hesap şimdi Deneme planına ve sınırlarına döner. Yeniden abone olmak yeni bir ödeme demektir.',
    endConfirm: 'Aboneliği şimdi bitir',
    keepSubscription: 'Vazgeç: portala dönün',
  },
};
