// What the site says, in Turkish and English: one table per language, so a missing translation is a type error.
import type { SiteLanguage } from '../links.js';

type TimeName = 'imsak' | 'fajr' | 'sunrise' | 'dhuhr' | 'asr' | 'maghrib' | 'isha';
type ExtraName = 'ishraq' | 'zawalStart' | 'isfirar' | 'midnight' | 'lastThirdStart';

export interface Words {
  siteName: string;
  tagline: string;
  /** The installed app's name under its icon (a dozen letters at most). */
  appShortName: string;
  prayerTimesIn: (place: string) => string;
  /** A place page's description (and share preview): today's date and times, `times` already written ("Fajr 06:12, …"). */
  placeDescription: (place: string, where: string, date: string, times: string) => string;
  times: Record<TimeName, string>;
  extras: Record<ExtraName, string>;
  hijriMonths: readonly string[];
  home: string;
  countries: string;
  regions: string;
  regionsOf: (country: string) => string;
  placesIn: (region: string) => string;
  search: string;
  searchLabel: string;
  searchPlaceholder: string;
  searchResultsFor: (query: string) => string;
  noResults: string;
  searchTooShort: string;
  today: string;
  nextPrayer: string;
  nextPrayerIn: string;
  /** "Next" before an event that is no prayer (sunrise). */
  nextEvent: string;
  /** What a page left open says when the times it holds are past, and its reload link. */
  outOfDate: string;
  reload: string;
  /** A page answered by the service worker from its copy on the device (no connection): every page's hidden notice. */
  offlineNotice: string;
  /** A place page's copy past the days it holds: today's row of the month's table is marked (countdown.js). */
  offlineTodayInMonth: string;
  /** The offline page (offlinePage.ts): a page the device does not keep, without a connection; the kept places. */
  offlineTitle: string;
  offlineText: string;
  offlineKept: string;
  offlineNoneKept: string;
  inTime: (hours: number, minutes: number) => string;
  monthlyTimetable: (month: string) => string;
  date: string;
  hijriDate: string;
  previousMonth: string;
  nextMonth: string;
  qibla: string;
  /** The qibla in words: degrees from true north, the compass point (`compassPoints`), the distance. */
  qiblaText: (bearing: string, direction: string, distanceKm: string) => string;
  /** The eight compass points from north, clockwise: "north", "north-east", … (qiblaCompass.ts). */
  compassPoints: readonly string[];
  /** The dial's letters for north, east, south and west. */
  compassLetters: readonly [string, string, string, string];
  /** The dial's accessible name. */
  compassTitle: (bearing: string, direction: string) => string;
  compassNorthUp: string;
  /** compass.js: its button, what it says while on, and why it cannot be. */
  compassStart: string;
  compassStop: string;
  compassOn: string;
  compassFacing: string;
  compassTurnLeft: (degrees: string) => string;
  compassTurnRight: (degrees: string) => string;
  compassDenied: string;
  compassMissing: string;
  method: string;
  madhab: string;
  madhabs: Record<'shafi' | 'hanafi', string>;
  defaultChoice: string;
  /** The default option of the method and madhab selects: what is in effect without a choice, and where. */
  defaultFor: (country: string) => string;
  useMyLocation: string;
  locating: string;
  locationDenied: string;
  locationFailed: string;
  lastPlace: string;
  nearTitle: string;
  nearText: string;
  latitude: string;
  longitude: string;
  find: string;
  coordinatesMissing: string;
  latitudeInvalid: string;
  longitudeInvalid: string;
  apply: string;
  calculation: string;
  estimatedNote: string;
  extrasHeading: string;
  nearby: string;
  otherLanguage: string;
  sameInApi: string;
  apiNote: string;
  calendar: string;
  calendarNote: string;
  /** The calendar section of a place page: the reminder's select, subscribing (webcal:) and downloading (.ics). */
  calendarReminder: string;
  calendarNoReminder: string;
  calendarMinutesBefore: (minutes: number) => string;
  calendarAtTheTime: string;
  calendarSubscribe: string;
  calendarDownload: string;
  calendarLinks: string;
  /** What Apple's and Google's calendars do with a subscription's reminders. */
  calendarClientsNote: string;
  /** A feed event's reminder (VALARM DESCRIPTION): "Maghrib in 10 minutes". */
  calendarAlarm: (prayer: string, minutes: number) => string;
  print: string;
  /** The Ramadan timetable (ramadanPage.ts): its heading and title, years already written ("2027", "2030–2031"). */
  ramadanTitle: (place: string, years: string, hijriYear: number) => string;
  /** Its description (and share preview), with the first day's imsak and iftar. */
  ramadanDescription: (place: string, where: string, hijriYear: number, firstDate: string, days: number, imsak: string, iftar: string) => string;
  /** "Ramadan 1448: from … to … (29 days)". */
  ramadanSpan: (hijriYear: number, from: string, to: string, days: number) => string;
  /** Why the dates may differ by a day from what a country announces. */
  ramadanCalendarNote: string;
  /** The column of the Hijri day. */
  ramadanDay: string;
  /** Under the imsak and maghrib columns' names, and before the countdown. */
  suhoorEnds: string;
  iftar: string;
  nextSuhoor: string;
  nextIftar: string;
  /** Estimated times in a table of days, marked with an asterisk. */
  estimatedDaysNote: string;
  /** The place page's link to the Ramadan timetable. */
  ramadanLink: string;
  docs: string;
  pricing: string;
  dashboard: string;
  notFoundTitle: string;
  notFoundText: string;
  badRequestTitle: string;
  timeZone: string;
  coordinates: string;
  /** The most populous places (of the world on the homes, of a country on its page). */
  largestCities: string;
  /** "71 places": a count of places, the number already formatted. */
  placeCount: (formatted: string, count: number) => string;
  /** The places whose region the sources do not name, as one group of a country. */
  otherPlaces: string;
  otherPlacesOf: (country: string) => string;
  skipToContent: string;
  breadcrumb: string;
  prayer: string;
  time: string;
  population: string;
  chooseLanguage: string;
  /** The widget (`/embed/…`): its link to the place page, and the place page's offer of its code. */
  fullTimetable: string;
  opensInNewTab: string;
  widgetHeading: string;
  widgetNote: string;
  widgetCode: string;
  copy: string;
  copied: string;
  copyFailed: string;
  themeInvalid: string;
}

export const WORDS: Readonly<Record<SiteLanguage, Words>> = {
  en: {
    siteName: 'Prayer Times',
    appShortName: 'Prayer Times',
    tagline: 'Prayer times for every city and every Turkish district, the qibla and the Hijri date, free and open.',
    prayerTimesIn: (place) => `Prayer times in ${place}`,
    placeDescription: (place, where, date, times) => `Prayer times in ${place}, ${where}, today (${date}): ${times}. The month's timetable and the qibla.`,
    times: { imsak: 'Imsak', fajr: 'Fajr', sunrise: 'Sunrise', dhuhr: 'Dhuhr', asr: 'Asr', maghrib: 'Maghrib', isha: 'Isha' },
    extras: { ishraq: 'Ishraq', zawalStart: 'Zawal begins', isfirar: 'Isfirar (sun yellows)', midnight: 'Islamic midnight', lastThirdStart: 'Last third of the night' },
    hijriMonths: ['Muharram', 'Safar', 'Rabi al-Awwal', 'Rabi al-Thani', 'Jumada al-Ula', 'Jumada al-Akhirah', 'Rajab', 'Shaban', 'Ramadan', 'Shawwal', 'Dhu al-Qadah', 'Dhu al-Hijjah'],
    home: 'Home',
    countries: 'Countries',
    regions: 'Regions',
    regionsOf: (country) => `Prayer times in ${country}: regions`,
    placesIn: (region) => `Prayer times in ${region}: places`,
    search: 'Search',
    searchLabel: 'City or district',
    searchPlaceholder: 'e.g. Kadıköy, Paris, Köln',
    searchResultsFor: (query) => `Places matching “${query}”`,
    noResults: 'No place matches. Try another spelling, or fewer letters.',
    searchTooShort: 'Type at least two letters.',
    today: 'Today',
    nextPrayer: 'Next prayer',
    nextPrayerIn: 'in',
    nextEvent: 'Next',
    outOfDate: 'The times on this page are out of date.',
    reload: 'Reload the page',
    offlineNotice: 'You are offline: this is the copy of this page kept on this device.',
    offlineTodayInMonth: 'Today’s times are on the marked row of the month’s table below.',
    offlineTitle: 'Offline',
    offlineText: 'There is no connection, and this page is not kept on this device.',
    offlineKept: 'The places you viewed last are kept here and open without a connection:',
    offlineNoneKept: 'No place is kept on this device yet: a place’s page is kept once you open it with a connection.',
    inTime: (h, m) => (h > 0 ? `${h} h ${m} min` : `${m} min`),
    monthlyTimetable: (month) => `Timetable for ${month}`,
    date: 'Date',
    hijriDate: 'Hijri',
    previousMonth: 'Previous month',
    nextMonth: 'Next month',
    qibla: 'Qibla',
    qiblaText: (bearing, direction, km) => `The qibla is ${bearing}° from true north (${direction}); the Kaaba is ${km} km away.`,
    compassPoints: ['north', 'north-east', 'east', 'south-east', 'south', 'south-west', 'west', 'north-west'],
    compassLetters: ['N', 'E', 'S', 'W'],
    compassTitle: (bearing, direction) => `Qibla compass: the arrow points ${bearing}° from north (${direction})`,
    compassNorthUp: 'North is at the top of the dial; the arrow points to the qibla.',
    compassStart: "Use this phone's compass",
    compassStop: 'Stop the compass',
    compassOn: 'Hold the phone flat with its top edge ahead of you: the dial turns with it and the arrow points to the qibla.',
    compassFacing: 'You are facing the qibla.',
    compassTurnLeft: (degrees) => `Turn ${degrees}° to the left.`,
    compassTurnRight: (degrees) => `Turn ${degrees}° to the right.`,
    compassDenied: 'The compass was not allowed. The dial shows the qibla with north at the top.',
    compassMissing: 'This device gives no compass heading. The dial shows the qibla with north at the top.',
    method: 'Method',
    madhab: 'Asr',
    madhabs: { shafi: 'Standard (Shafi, Maliki, Hanbali)', hanafi: 'Hanafi' },
    defaultChoice: 'default',
    defaultFor: (country) => `default for ${country}`,
    useMyLocation: 'Use my location',
    locating: 'Finding your location…',
    locationDenied: 'Your location was not shared. Search for a place instead.',
    locationFailed: 'Your location could not be found. Search for a place instead.',
    lastPlace: 'Last viewed:',
    nearTitle: 'The place nearest to you',
    nearText: 'Type a latitude and a longitude in decimal degrees (such as 41.0082 and 28.9784) to open the prayer times of the nearest place, or use your location.',
    latitude: 'Latitude',
    longitude: 'Longitude',
    find: 'Find',
    coordinatesMissing: 'Give both a latitude and a longitude.',
    latitudeInvalid: 'The latitude must be a number from -90 to 90.',
    longitudeInvalid: 'The longitude must be a number from -180 to 180.',
    apply: 'Show',
    calculation: 'Calculation',
    estimatedNote: 'Estimated (here today the sun does not reach the angle, or does not rise or set):',
    extrasHeading: 'More times',
    nearby: 'Nearby places',
    otherLanguage: 'Türkçe',
    sameInApi: 'The same in the API',
    apiNote: 'These times come from the same code as the API; this call gives them as JSON (with your key):',
    calendar: 'Add to calendar',
    calendarNote: 'A calendar subscription with the prayers of the next 12 months, kept up to date by your calendar app.',
    calendarReminder: 'Reminder',
    calendarNoReminder: 'No reminder',
    calendarMinutesBefore: (minutes) => `${minutes} minutes before`,
    calendarAtTheTime: 'At the time',
    calendarSubscribe: 'Subscribe',
    calendarDownload: 'Download (.ics)',
    calendarLinks: 'The addresses, without a reminder:',
    calendarClientsNote: 'Apple Calendar keeps the reminders if “Remove alerts” is left off when subscribing. Google Calendar: Settings → Add calendar → From URL, paste the address (it uses its own notifications, not these reminders).',
    calendarAlarm: (prayer, minutes) => (minutes === 0 ? `${prayer} now` : `${prayer} in ${minutes} minutes`),
    print: 'Print the month',
    ramadanTitle: (place, years, hijriYear) => `Ramadan ${years} timetable for ${place} (${hijriYear} AH)`,
    ramadanDescription: (place, where, hijriYear, firstDate, days, imsak, iftar) =>
      `Ramadan ${hijriYear} in ${place}, ${where}, from ${firstDate}: suhoor (imsak) and iftar times for all ${days} days. First day: imsak ${imsak}, iftar ${iftar}.`,
    ramadanSpan: (hijriYear, from, to, days) => `Ramadan ${hijriYear}: ${from} to ${to} (${days} days)`,
    ramadanCalendarNote: 'The dates follow the Umm al-Qura calendar; where Ramadan is announced by sighting the moon, it may begin or end a day later.',
    ramadanDay: 'Ramadan',
    suhoorEnds: 'suhoor ends',
    iftar: 'iftar',
    nextSuhoor: 'Suhoor ends (imsak)',
    nextIftar: 'Iftar (maghrib)',
    estimatedDaysNote: 'Times marked * are estimated (here on that day the sun does not reach the angle, or does not rise or set).',
    ramadanLink: 'Ramadan timetable: suhoor and iftar for every day',
    docs: 'API docs',
    pricing: 'Pricing',
    dashboard: 'Dashboard',
    notFoundTitle: 'Page not found',
    notFoundText: 'There is no page at this address. Search for a place instead:',
    badRequestTitle: 'This request cannot be answered',
    timeZone: 'Time zone',
    coordinates: 'Coordinates',
    largestCities: 'Largest cities',
    placeCount: (n, count) => (count === 1 ? `${n} place` : `${n} places`),
    otherPlaces: 'Other places',
    otherPlacesOf: (country) => `Prayer times in ${country}: other places`,
    skipToContent: 'Skip to content',
    breadcrumb: 'Breadcrumb',
    prayer: 'Prayer',
    time: 'Time',
    population: 'Population',
    chooseLanguage: 'Choose a language',
    fullTimetable: 'Full timetable',
    opensInNewTab: '(opens in a new tab)',
    widgetHeading: 'These times on your site',
    widgetNote: "A mosque or community site may show this place's times today and the next prayer with this code: free, with no cookies and no tracking. Add ?theme=light or ?theme=dark to the address to fix its colours; without it they follow the visitor's device.",
    widgetCode: 'Code for your page (HTML)',
    copy: 'Copy',
    copied: 'Copied.',
    copyFailed: 'Select the code and copy it.',
    themeInvalid: 'theme must be light or dark (or left out, to follow the device).',
  },
  tr: {
    siteName: 'Namaz Vakitleri',
    appShortName: 'Namaz Vakti',
    tagline: 'Her şehir ve her ilçe için namaz vakitleri, kıble ve hicri takvim; ücretsiz ve açık.',
    prayerTimesIn: (place) => `${place} namaz vakitleri`,
    placeDescription: (place, where, date, times) => `${place} (${where}) namaz vakitleri, bugün (${date}): ${times}. Aylık imsakiye ve kıble.`,
    times: { imsak: 'İmsak', fajr: 'Sabah', sunrise: 'Güneş', dhuhr: 'Öğle', asr: 'İkindi', maghrib: 'Akşam', isha: 'Yatsı' },
    extras: { ishraq: 'İşrak', zawalStart: 'Kerahat (zeval) başlangıcı', isfirar: 'İsfirar (güneşin sararması)', midnight: 'Gece yarısı (şer‘î)', lastThirdStart: 'Gecenin son üçte biri' },
    hijriMonths: ['Muharrem', 'Safer', 'Rebiülevvel', 'Rebiülahir', 'Cemaziyelevvel', 'Cemaziyelahir', 'Recep', 'Şaban', 'Ramazan', 'Şevval', 'Zilkade', 'Zilhicce'],
    home: 'Ana sayfa',
    countries: 'Ülkeler',
    regions: 'Bölgeler',
    regionsOf: (country) => `${country} namaz vakitleri: bölgeler`,
    placesIn: (region) => `${region} namaz vakitleri: yerler`,
    search: 'Ara',
    searchLabel: 'Şehir veya ilçe',
    searchPlaceholder: 'ör. Kadıköy, Paris, Köln',
    searchResultsFor: (query) => `“${query}” için bulunan yerler`,
    noResults: 'Eşleşen yer yok. Başka bir yazımı ya da daha az harf deneyin.',
    searchTooShort: 'En az iki harf yazın.',
    today: 'Bugün',
    nextPrayer: 'Sıradaki vakit',
    nextPrayerIn: 'kalan',
    nextEvent: 'Sıradaki',
    outOfDate: 'Bu sayfadaki vakitler güncel değil.',
    reload: 'Sayfayı yenileyin',
    offlineNotice: 'Çevrimdışısınız: bu, sayfanın bu cihazda kayıtlı kopyası.',
    offlineTodayInMonth: 'Bugünün vakitleri aşağıdaki aylık çizelgede, işaretli satırda.',
    offlineTitle: 'Çevrimdışı',
    offlineText: 'İnternet bağlantısı yok ve bu sayfa bu cihazda kayıtlı değil.',
    offlineKept: 'Son baktığınız yerler burada kayıtlı ve bağlantı olmadan da açılır:',
    offlineNoneKept: 'Bu cihazda henüz kayıtlı yer yok: bir yerin sayfası, bağlantı varken açtığınızda kaydedilir.',
    inTime: (h, m) => (h > 0 ? `${h} sa ${m} dk` : `${m} dk`),
    monthlyTimetable: (month) => `${month} imsakiyesi`,
    date: 'Tarih',
    hijriDate: 'Hicri',
    previousMonth: 'Önceki ay',
    nextMonth: 'Sonraki ay',
    qibla: 'Kıble',
    qiblaText: (bearing, direction, km) => `Kıble coğrafi kuzeyden ${bearing}° (${direction}); Kâbe ${km} km uzakta.`,
    compassPoints: ['kuzey', 'kuzeydoğu', 'doğu', 'güneydoğu', 'güney', 'güneybatı', 'batı', 'kuzeybatı'],
    compassLetters: ['K', 'D', 'G', 'B'],
    compassTitle: (bearing, direction) => `Kıble pusulası: ok kuzeyden ${bearing}° yönünü (${direction}) gösterir`,
    compassNorthUp: 'Kadranda kuzey üstte; ok kıbleyi gösterir.',
    compassStart: 'Telefonun pusulasını kullan',
    compassStop: 'Pusulayı kapat',
    compassOn: 'Telefonu yere paralel, üst kenarı önünüzde tutun: kadran onunla döner, ok kıbleyi gösterir.',
    compassFacing: 'Kıbleye dönüksünüz.',
    compassTurnLeft: (degrees) => `${degrees}° sola dönün.`,
    compassTurnRight: (degrees) => `${degrees}° sağa dönün.`,
    compassDenied: 'Pusulaya izin verilmedi. Kadran kıbleyi kuzey üstte olacak şekilde gösteriyor.',
    compassMissing: 'Bu cihaz pusula yönü vermiyor. Kadran kıbleyi kuzey üstte olacak şekilde gösteriyor.',
    method: 'Yöntem',
    madhab: 'İkindi',
    madhabs: { shafi: 'Asr-ı evvel (Şafii, Maliki, Hanbeli)', hanafi: 'Asr-ı sani (Hanefi)' },
    defaultChoice: 'varsayılan',
    defaultFor: (country) => `${country} için varsayılan`,
    useMyLocation: 'Konumumu kullan',
    locating: 'Konumunuz bulunuyor…',
    locationDenied: 'Konumunuz paylaşılmadı. Bunun yerine bir yer arayın.',
    locationFailed: 'Konumunuz bulunamadı. Bunun yerine bir yer arayın.',
    lastPlace: 'Son baktığınız yer:',
    nearTitle: 'Size en yakın yer',
    nearText: 'Ondalık derece olarak bir enlem ve bir boylam yazın (ör. 41,0082 ve 28,9784); en yakın yerin namaz vakitleri açılır. Ya da konumunuzu kullanın.',
    latitude: 'Enlem',
    longitude: 'Boylam',
    find: 'Bul',
    coordinatesMissing: 'Hem enlem hem boylam yazın.',
    latitudeInvalid: 'Enlem -90 ile 90 arasında bir sayı olmalı.',
    longitudeInvalid: 'Boylam -180 ile 180 arasında bir sayı olmalı.',
    apply: 'Göster',
    calculation: 'Hesaplama',
    estimatedNote: 'Tahmini (güneş bugün burada bu açıya inmiyor ya da doğmuyor veya batmıyor):',
    extrasHeading: 'Diğer vakitler',
    nearby: 'Yakındaki yerler',
    otherLanguage: 'English',
    sameInApi: "API'de aynısı",
    apiNote: "Bu vakitler API ile aynı koddan gelir; bu çağrı onları JSON olarak verir (anahtarınızla):",
    calendar: 'Takvime ekle',
    calendarNote: 'Önümüzdeki 12 ayın vakitleriyle, takvim uygulamanızın güncel tuttuğu bir takvim aboneliği.',
    calendarReminder: 'Hatırlatma',
    calendarNoReminder: 'Hatırlatma yok',
    calendarMinutesBefore: (minutes) => `${minutes} dakika önce`,
    calendarAtTheTime: 'Vaktinde',
    calendarSubscribe: 'Abone ol',
    calendarDownload: 'İndir (.ics)',
    calendarLinks: 'Adresler, hatırlatmasız:',
    calendarClientsNote: 'Apple Takvim, abone olurken “Uyarıları kaldır” kapalı bırakılırsa hatırlatmaları korur. Google Takvim: Ayarlar → Takvim ekle → URL ile, adresi yapıştırın (bu hatırlatmaları değil, kendi bildirimlerini kullanır).',
    calendarAlarm: (prayer, minutes) => (minutes === 0 ? `${prayer} vakti girdi` : `${prayer} vaktine ${minutes} dakika var`),
    print: 'Ayı yazdır',
    ramadanTitle: (place, years, hijriYear) => `${place} Ramazan imsakiyesi ${years} (${hijriYear})`,
    ramadanDescription: (place, where, hijriYear, firstDate, days, imsak, iftar) =>
      `${place} (${where}) Ramazan ${hijriYear} imsakiyesi, ${firstDate} başlangıçlı ${days} günün sahur (imsak) ve iftar vakitleri. İlk gün: imsak ${imsak}, iftar ${iftar}.`,
    ramadanSpan: (hijriYear, from, to, days) => `Ramazan ${hijriYear}: ${from} – ${to} (${days} gün)`,
    ramadanCalendarNote: 'Tarihler Ümmü’l-Kurâ takvimine göredir; Ramazan’ın hilalin görülmesiyle ilan edildiği yerlerde bir gün sonra başlayıp bitebilir.',
    ramadanDay: 'Ramazan',
    suhoorEnds: 'sahur biter',
    iftar: 'iftar',
    nextSuhoor: 'Sahur bitişi (imsak)',
    nextIftar: 'İftar (akşam)',
    estimatedDaysNote: '* ile işaretli vakitler tahminidir (güneş o gün burada bu açıya inmiyor ya da doğmuyor veya batmıyor).',
    ramadanLink: 'Ramazan imsakiyesi: her günün sahur ve iftar vakitleri',
    docs: 'API belgeleri',
    pricing: 'Fiyatlar',
    dashboard: 'Panel',
    notFoundTitle: 'Sayfa bulunamadı',
    notFoundText: 'Bu adreste bir sayfa yok. Bunun yerine bir yer arayın:',
    badRequestTitle: 'Bu istek yanıtlanamıyor',
    timeZone: 'Saat dilimi',
    coordinates: 'Koordinatlar',
    largestCities: 'Büyük şehirler',
    placeCount: (n) => `${n} yer`,
    otherPlaces: 'Diğer yerler',
    otherPlacesOf: (country) => `${country} namaz vakitleri: diğer yerler`,
    skipToContent: 'İçeriğe geç',
    breadcrumb: 'Sayfa yolu',
    prayer: 'Vakit',
    time: 'Saat',
    population: 'Nüfus',
    chooseLanguage: 'Dil seçin',
    fullTimetable: 'Tüm vakitler',
    opensInNewTab: '(yeni sekmede açılır)',
    widgetHeading: 'Bu vakitler sitenizde',
    widgetNote: 'Camiler ve dernekler bu yerin bugünkü vakitlerini ve sıradaki vakti bu kodla kendi sitelerinde gösterebilir: ücretsiz, çerezsiz ve izlemesiz. Renkleri sabitlemek için adrese ?theme=light ya da ?theme=dark ekleyin; eklenmezse ziyaretçinin cihazına uyar.',
    widgetCode: 'Sayfanız için kod (HTML)',
    copy: 'Kopyala',
    copied: 'Kopyalandı.',
    copyFailed: 'Kodu seçip kopyalayın.',
    themeInvalid: 'theme light ya da dark olmalı (ya da cihaza uyması için hiç yazılmamalı).',
  },
};

const countryNames: Record<SiteLanguage, Intl.DisplayNames> = {
  en: new Intl.DisplayNames('en', { type: 'region' }),
  tr: new Intl.DisplayNames('tr', { type: 'region' }),
};

/** A country's name in the language of the page (ISO alpha-2 in, the runtime's name out). */
export const countryName = (code: string, language: SiteLanguage): string => countryNames[language].of(code) ?? code;

const monthFormats: Record<SiteLanguage, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
  tr: new Intl.DateTimeFormat('tr', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
};
const dayFormats: Record<SiteLanguage, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
  tr: new Intl.DateTimeFormat('tr', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
};
const shortDayFormats: Record<SiteLanguage, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en', { weekday: 'short', day: 'numeric', timeZone: 'UTC' }),
  tr: new Intl.DateTimeFormat('tr', { weekday: 'short', day: 'numeric', timeZone: 'UTC' }),
};
const dayMonthFormats: Record<SiteLanguage, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', timeZone: 'UTC' }),
  tr: new Intl.DateTimeFormat('tr', { day: 'numeric', month: 'short', timeZone: 'UTC' }),
};
const weekdayFormats: Record<SiteLanguage, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en', { weekday: 'short', timeZone: 'UTC' }),
  tr: new Intl.DateTimeFormat('tr', { weekday: 'short', timeZone: 'UTC' }),
};

const utc = (date: string): Date => new Date(`${date}T00:00:00Z`);

/** Formatting a date with Intl is slow next to the rest of a page (a month has 31 rows): each text is kept. */
function remembered(format: (date: string, language: SiteLanguage) => string): (date: string, language: SiteLanguage) => string {
  const texts = new Map<string, string>();
  return (date, language) => {
    const key = `${language}${date}`;
    let text = texts.get(key);
    if (text === undefined) {
      if (texts.size >= 20_000) texts.clear();
      texts.set(key, (text = format(date, language)));
    }
    return text;
  };
}
/** "November 2026", "Kasım 2026". */
export const monthTitle = (year: number, month: number, language: SiteLanguage): string =>
  monthFormats[language].format(Date.UTC(year, month - 1, 1));
/** "Monday, 23 November 2026", "23 Kasım 2026 Pazartesi". */
export const longDate = remembered((date, language) => dayFormats[language].format(utc(date)));
/** "Feb 8", "8 Şub" and "Mon", "Pzt" for the rows of a table that may span two months (the Ramadan timetable). */
export const dayAndMonth = remembered((date, language) => dayMonthFormats[language].format(utc(date)));
export const shortWeekday = remembered((date, language) => weekdayFormats[language].format(utc(date)));
/** "Mon 23", "23 Pzt" for the rows of the month. */
export const shortDay = remembered((date, language) => shortDayFormats[language].format(utc(date)));

const numberFormats: Record<SiteLanguage, Intl.NumberFormat> = { en: new Intl.NumberFormat('en'), tr: new Intl.NumberFormat('tr') };
export const formatNumber = (value: number, language: SiteLanguage): string => numberFormats[language].format(value);
