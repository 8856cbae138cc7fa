// The widget's fixed themes (embed.css, `?theme=light|dark`) are the site's two palettes (site.css), value for value:
// a colour changed in one place and not the other would leave the widget's contrast unchecked.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = (name: string): string => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');

/** The custom properties (`--ink: #1b1f23`) of the first rule whose selector is `selector`, in the text given. */
function palette(text: string, selector: string): Record<string, string> {
  const start = text.indexOf(`${selector} {`);
  expect(start, selector).toBeGreaterThanOrEqual(0);
  const body = text.slice(start + selector.length + 2, text.indexOf('}', start));
  return Object.fromEntries([...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]));
}

describe('the widget’s themes', () => {
  it('are site.css’s light and dark palettes', () => {
    const site = css('site.css');
    const embed = css('embed.css');
    const light = palette(site, ':root');
    const darkMedia = site.slice(site.indexOf('(prefers-color-scheme: dark)'));
    const dark = palette(darkMedia, ':root');
    expect(Object.keys(light).length).toBeGreaterThan(5);
    expect(Object.keys(dark)).toEqual(Object.keys(light));
    expect(palette(embed, ':root[data-theme="light"]')).toEqual(light);
    expect(palette(embed, ':root[data-theme="dark"]')).toEqual(dark);
  });
});
