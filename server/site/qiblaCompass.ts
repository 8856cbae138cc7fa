// The qibla on a place page: a compass dial drawn as inline SVG with north at the top and an arrow at the bearing (no
// script needed), the bearing, the compass point and the distance in words, and a button that compass.js shows where
// the browser has device orientation: the dial then turns with the phone. The bearing and distance are the API's
// /qibla answer for the place (placePage.ts asks it), so the page and the API never disagree.
import type { SiteLanguage } from '../links.js';
import { html, trusted, type Html } from '../web/html.js';
import type { QiblaView } from './placeView.js';
import { formatNumber, WORDS } from './words.js';

/**
 * The compass point of a bearing, of eight: north, north-east, … (each 45° wide, centred on its direction). Eight, not
 * sixteen: "south-south-east" is not plain language (nor "güney-güneydoğu"), and the degrees are written beside it.
 */
export function compassPoint(bearing: number): number {
  return Math.round((((bearing % 360) + 360) % 360) / 45) % 8;
}

/** The dial's radius in its own units (the viewBox is 240 wide, centred on 0,0). */
const RING = 100;

/** Ticks every 15°, longer every 45° and 90°, as one path: the card that turns with the phone. */
const TICKS = ((): string => {
  let d = '';
  for (let degrees = 0; degrees < 360; degrees += 15) {
    const length = degrees % 90 === 0 ? 14 : degrees % 45 === 0 ? 10 : 6;
    const a = (degrees * Math.PI) / 180;
    const point = (r: number): string => `${(r * Math.sin(a)).toFixed(2)},${(-r * Math.cos(a)).toFixed(2)}`;
    d += `M${point(RING)}L${point(RING - length)}`;
  }
  return d;
})();

/** The card (ring, ticks, the four letters) of each language, made once. */
const CARDS: Readonly<Record<SiteLanguage, Html>> = {
  tr: card('tr'),
  en: card('en'),
};

function card(language: SiteLanguage): Html {
  const letters = WORDS[language].compassLetters;
  const at = [
    [0, -74],
    [74, 0],
    [0, 74],
    [-74, 0],
  ] as const;
  return html`<circle class="compass-ring" r="${RING}"/>
<path class="compass-ticks" d="${TICKS}"/>
${letters.map((letter, i) => html`<text class="compass-letter${i === 0 && ' compass-north'}" x="${at[i][0]}" y="${at[i][1]}" text-anchor="middle" dominant-baseline="central">${letter}</text>`)}`;
}

/** The arrow (pointing up before it is turned) with the Kaaba at its tip. */
const NEEDLE = trusted(
  '<path class="qibla-arrow" d="M0,-64L11,-44L4,-44L4,28L-4,28L-4,-44L-11,-44Z"/>' +
    '<rect class="kaaba" x="-10" y="-92" width="20" height="20" rx="2"/><rect class="kaaba-band" x="-10" y="-86" width="20" height="4"/>',
);

/** Degrees as an SVG rotation: two decimals at most, as the API gives the bearing. */
const degrees = (value: number): string => String(Math.round(value * 100) / 100);

export function qiblaCompass(language: SiteLanguage, qibla: QiblaView): Html {
  const w = WORDS[language];
  const bearing = formatNumber(qibla.bearing, language);
  const direction = w.compassPoints[compassPoint(qibla.bearing)];
  return html`<section class="qibla" aria-labelledby="qibla-heading">
<h2 id="qibla-heading">${w.qibla}</h2>
<div class="qibla-compass" data-bearing="${degrees(qibla.bearing)}" data-start="${w.compassStart}" data-stop="${w.compassStop}" data-on="${w.compassOn}" data-facing="${w.compassFacing}" data-turn-left="${w.compassTurnLeft('{n}')}" data-turn-right="${w.compassTurnRight('{n}')}" data-denied="${w.compassDenied}" data-missing="${w.compassMissing}">
<svg class="compass" viewBox="-120 -120 240 240" role="img" aria-labelledby="compass-title" focusable="false">
<title id="compass-title">${w.compassTitle(bearing, direction)}</title>
<g class="compass-card" transform="rotate(0)">${CARDS[language]}</g>
<g class="qibla-needle" transform="rotate(${degrees(qibla.bearing)})">${NEEDLE}</g>
<circle class="compass-hub" r="6"/>
<path class="compass-heading-mark" d="M0,-103L-8,-117L8,-117Z"/>
</svg>
<div class="compass-text">
<p class="qibla-text">${w.qiblaText(bearing, direction, formatNumber(qibla.distanceKm, language))}</p>
<p class="note compass-how">${w.compassNorthUp}</p>
<button type="button" class="compass-start" hidden>${w.compassStart}</button>
<p class="compass-state" role="status"></p>
<p class="compass-turn"></p>
</div>
</div>
</section>`;
}
