// The version of the calculation's rules that no method row holds: how a day without an event is resolved (the polar
// reference latitudes), where adhan's formulas are solved anew near the polar circles, the low-sun asr. The methods'
// fingerprint (methods.ts) includes it, so a store computed under older rules is set aside (served live) until
// `make precompute`. Raise it with any change to that code that moves a printed minute.
//   1: the half-degree grid of nearest complete days (until issue 33).
//   2: reference latitudes that follow the declination; adhan's step solved near the meridian; low-sun asr (issue 33).
export const CALCULATION_RULES_VERSION = 2;
