// Default calculation method and Asr convention by country (contract, "Calculation").
import type { Madhab } from './methods.js';

const DEFAULT_METHOD_BY_COUNTRY: Readonly<Record<string, string>> = {
  TR: 'diyanet',
  SA: 'ummAlQura', YE: 'ummAlQura',
  EG: 'egyptian', SD: 'egyptian', LY: 'egyptian', SY: 'egyptian', LB: 'egyptian', PS: 'egyptian',
  PK: 'karachi', IN: 'karachi', BD: 'karachi', AF: 'karachi',
  IR: 'tehran',
  AE: 'dubai',
  KW: 'kuwait',
  QA: 'qatar',
  BH: 'gulf',
  OM: 'oman',
  SG: 'singapore',
  MY: 'jakim',
  BN: 'brunei',
  ID: 'kemenag',
  FR: 'uoif',
  RU: 'russia',
  US: 'isna', CA: 'isna',
  MA: 'morocco',
  DZ: 'algeria',
  TN: 'tunisia',
  JO: 'jordan',
  PT: 'portugal',
  XK: 'kosovo',
  BA: 'bosnia',
};

/** South and Central Asia follow the Hanafi Asr; everywhere else (Iran included) the one-shadow rule. */
const HANAFI_COUNTRIES: ReadonlySet<string> = new Set([
  'AF', 'BD', 'BT', 'IN', 'LK', 'MV', 'NP', 'PK', 'KZ', 'KG', 'TJ', 'TM', 'UZ',
]);

export function defaultMethodId(country: string | undefined): string {
  return (country && DEFAULT_METHOD_BY_COUNTRY[country]) || 'muslimWorldLeague';
}

export function defaultMadhab(country: string | undefined): Madhab {
  return country && HANAFI_COUNTRIES.has(country) ? 'hanafi' : 'shafi';
}
