// The widget's `<iframe>` code, as the place page offers it to copy: this place, this language, the method and madhab
// the page shows (when chosen), at a size that holds a day of seven rows from 250 px wide. The field is read-only and
// selectable without JavaScript; copySnippet.js adds a Copy button.
import { embedPagePath, type SiteLanguage } from '../links.js';
import { html, type Html } from '../web/html.js';
import { WORDS } from './words.js';

/**
 * The frame's size in the code: as wide as the host's column allows up to 400 px, and tall enough for the day with
 * seven rows, the next prayer and the link at 250 px (the narrowest the widget is made for, where the heading and
 * the method take two lines each; embed.browser.test.ts measures it).
 */
export const WIDGET_FRAME = { maxWidth: 400, height: 480 } as const;

/** The `<iframe>` a host page pastes: the widget of one place in one language, with the page's choices. */
export function embedSnippet(base: string, language: SiteLanguage, placePath: string, title: string, choice: Readonly<Record<string, string>>): string {
  const query = new URLSearchParams({ ...choice }).toString();
  const src = `${base}${embedPagePath(language, placePath)}${query ? `?${query}` : ''}`;
  // Markup for the host's page, escaped as ours is (a place name with a quote); a style attribute, since the host's
  // stylesheet is not ours to name.
  return html`<iframe src="${src}" title="${title}" width="100%" height="${WIDGET_FRAME.height}" style="border:0;max-width:${WIDGET_FRAME.maxWidth}px" loading="lazy"></iframe>`.text;
}

/** The place page's section offering the code. */
export function embedOffer(language: SiteLanguage, snippet: string): Html {
  const w = WORDS[language];
  return html`<section class="widget-offer" aria-labelledby="widget-heading">
<h2 id="widget-heading">${w.widgetHeading}</h2>
<p>${w.widgetNote}</p>
<label for="widget-code">${w.widgetCode}</label>
<textarea id="widget-code" class="snippet" rows="4" readonly spellcheck="false" autocomplete="off">${snippet}</textarea>
<p class="copy-row"><button type="button" data-copy="widget-code" data-status="widget-copy-status" data-copied="${w.copied}" data-failed="${w.copyFailed}" hidden>${w.copy}</button> <span id="widget-copy-status" role="status"></span></p>
</section>`;
}
