// The installable app's raster icons, derived from the site's one drawing (server/web/assets/icon.svg) and written
// beside it as committed files: the manifest's 192 and 512 px icons (the drawing as it is, rounded corners
// transparent), a 512 px maskable icon and the 180 px apple-touch-icon (the background to the edges, as launchers
// and iOS cut their own shape; the crescent scaled into the maskable safe circle), and favicon.ico (16, 32 and 48 px
// PNG images in an ICO wrapper, for browsers and tools that ask for /favicon.ico). Chromium renders the SVG (the
// project has no image library); the PNGs are committed so the server reads files at start-up and never needs a
// browser. Run it again after changing icon.svg:
//   node --import tsx scripts/make-icons.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../testing/browser.js';

const ASSETS = new URL('../server/web/assets/', import.meta.url);
const source = readFileSync(new URL('icon.svg', ASSETS), 'utf8');

const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(source);
const background = /<rect\b[^>]*\bfill="(#[0-9a-fA-F]{3,6})"/.exec(source);
const glyph = /<path\b[^>]*\/>/.exec(source);
if (!viewBox || viewBox[1] !== viewBox[2] || !background || !glyph) {
  throw new Error('icon.svg is not the square drawing this script knows (a viewBox "0 0 n n", a <rect> with a fill, one <path>)');
}
const side = Number(viewBox[1]);

/**
 * The drawing with its background to the edges and the glyph scaled about the centre: a maskable icon keeps what
 * matters in the circle of 80% of its width (launchers cut any shape around it), so the crescent is brought to 80%.
 */
function fullBleed(scale: number): string {
  const shift = (side * (1 - scale)) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}"><rect width="${side}" height="${side}" fill="${background![1]}"/><g transform="translate(${shift} ${shift}) scale(${scale})">${glyph![0]}</g></svg>`;
}

interface Raster {
  file: string;
  svg: string;
  size: number;
}

const RASTERS: readonly Raster[] = [
  { file: 'icon-192.png', svg: source, size: 192 },
  { file: 'icon-512.png', svg: source, size: 512 },
  { file: 'icon-maskable-512.png', svg: fullBleed(0.8), size: 512 },
  { file: 'apple-touch-icon.png', svg: fullBleed(0.9), size: 180 },
];
const FAVICON_SIZES = [16, 32, 48] as const;

/** An ICO file whose images are PNGs (allowed since Windows Vista; every current browser reads it). */
export function icoOf(images: ReadonlyArray<{ size: number; png: Buffer }>): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // an icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, entry); // width (0 means 256)
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1); // height
    header.writeUInt8(0, entry + 2); // no palette
    header.writeUInt8(0, entry + 3); // reserved
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.png)]);
}

const browser = await launchBrowser();
try {
  const context = await browser.newContext({ deviceScaleFactor: 1 });
  const page = await context.newPage();
  const render = async (svg: string, size: number): Promise<Buffer> => {
    await page.setViewportSize({ width: size, height: size });
    const dataUrl = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent"><img src="${dataUrl}" width="${size}" height="${size}" style="display:block"></body></html>`);
    await page.locator('img').evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
    return page.screenshot({ type: 'png', omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  };
  for (const { file, svg, size } of RASTERS) {
    writeFileSync(new URL(file, ASSETS), await render(svg, size));
    console.log(`wrote ${fileURLToPath(new URL(file, ASSETS))} (${size} px)`);
  }
  const favicons = [];
  for (const size of FAVICON_SIZES) favicons.push({ size, png: await render(source, size) });
  writeFileSync(new URL('favicon.ico', ASSETS), icoOf(favicons));
  console.log(`wrote ${fileURLToPath(new URL('favicon.ico', ASSETS))} (${FAVICON_SIZES.join(', ')} px)`);
  await context.close();
} finally {
  await browser.close();
}
