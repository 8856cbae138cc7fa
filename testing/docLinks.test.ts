// Every relative link in README.md and docs/ leads somewhere: the file (or folder) exists inside the repository, and
// a #anchor names a heading of the target Markdown file by GitHub's slug rule. The README is the front door and the
// depth lives in docs/, so a moved section or a renamed heading must not leave a link behind. Links inside code (fenced
// blocks, code spans) are not links; absolute URLs (https:, mailto:) are not checked here.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What the check needs of the repository: paths are relative to its root, with `/`. */
export interface Tree {
  exists(file: string): boolean;
  /** The text of a file, or undefined when there is none. */
  read(file: string): string | undefined;
}

/** Text with the fences' contents blanked (lines kept), so that nothing in a code block is taken for Markdown. */
function withoutFences(text: string): string {
  let fence: string | undefined;
  return text
    .split('\n')
    .map((line) => {
      const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined) {
        if (marker) fence = marker;
        return marker ? '' : line;
      }
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      return '';
    })
    .join('\n');
}

/** GitHub's anchor for a heading's text: lower case, punctuation but hyphens dropped, each space a hyphen. */
export function slugOf(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image in a heading: its text
    .replace(/<[^>]+>/g, '') // inline HTML
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors a Markdown file's ATX headings give, with GitHub's -1, -2… for repeated ones. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = slugOf(heading);
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    anchors.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return anchors;
}

/** The destinations of a Markdown file's links and images (inline, and reference definitions), outside code. */
export function linkTargets(markdown: string): string[] {
  const text = withoutFences(markdown).replace(/(`+)[\s\S]*?\1/g, (span) => span.replace(/[^\n]/g, ' '));
  const inline = [...text.matchAll(/!?\[[^\[\]]*\]\(\s*(<[^>]*>|[^\s()]+)(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const definitions = [...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/gm)].map((m) => m[1]);
  return [...inline, ...definitions].map((target) => target.replace(/^<(.*)>$/, '$1'));
}

const isAbsolute = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/** The links of one Markdown file (repository-relative path) that lead nowhere, each with the reason. */
export function brokenLinks(file: string, markdown: string, tree: Tree): string[] {
  const broken: string[] = [];
  for (const target of linkTargets(markdown)) {
    if (isAbsolute(target)) continue;
    const hash = target.indexOf('#');
    const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
    const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const resolved = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart));
    if (resolved === '..' || resolved.startsWith('../') || path.posix.isAbsolute(resolved)) {
      broken.push(`${file}: ${target} (outside the repository)`);
    } else if (!tree.exists(resolved)) {
      broken.push(`${file}: ${target} (no such file)`);
    } else if (anchor !== undefined && anchor !== '') {
      if (!resolved.endsWith('.md')) {
        if (!/^L\d+(-L\d+)?$/.test(anchor)) broken.push(`${file}: ${target} (an anchor into a file that is not Markdown)`);
      } else if (!anchorsOf(tree.read(resolved) ?? '').has(anchor)) {
        broken.push(`${file}: ${target} (no heading of ${resolved} has the anchor #${anchor})`);
      }
    }
  }
  return broken;
}

const repository: Tree = {
  exists: (file) => existsSync(path.join(ROOT, file)),
  read: (file) => (existsSync(path.join(ROOT, file)) ? readFileSync(path.join(ROOT, file), 'utf8') : undefined),
};

function markdownUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.posix.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return markdownUnder(rel);
    return name.endsWith('.md') ? [rel] : [];
  });
}

describe('links in README.md and docs/', () => {
  const files = ['README.md', ...markdownUnder('docs')];

  it('lead to a file that exists and, with an anchor, to a heading it has', () => {
    const broken = files.flatMap((file) => brokenLinks(file, repository.read(file)!, repository));
    expect(broken).toEqual([]);
  });

  it('are there to follow: the README links every doc, and the docs link each other', () => {
    const readmeTargets = linkTargets(repository.read('README.md')!).filter((t) => !isAbsolute(t));
    for (const doc of markdownUnder('docs')) expect(readmeTargets.map((t) => t.split('#')[0])).toContain(doc);
    const relative = files.flatMap((file) => linkTargets(repository.read(file)!).filter((t) => !isAbsolute(t)));
    expect(relative.filter((t) => t.includes('#')).length).toBeGreaterThan(10);
  });
});

describe('the link check itself', () => {
  const tree = (files: Record<string, string>): Tree => ({
    exists: (file) => file in files || Object.keys(files).some((f) => f.startsWith(`${file}/`)),
    read: (file) => files[file],
  });

  it("takes GitHub's slug of a heading", () => {
    expect(slugOf('Third pass (issue 17): the sunrise and maghrib family')).toBe('third-pass-issue-17-the-sunrise-and-maghrib-family');
    expect(slugOf('`/readyz`')).toBe('readyz');
    expect(slugOf('Format (`prayer-times-store-bundle/1`)')).toBe('format-prayer-times-store-bundle1');
    expect(slugOf('Several cores, faults and limits')).toBe('several-cores-faults-and-limits');
    expect(slugOf("Morocco: the Ministry's horizon depends on the city")).toBe('morocco-the-ministrys-horizon-depends-on-the-city');
    expect(slugOf('Türkiye’s districts — snapped')).toBe('türkiyes-districts--snapped');
    expect(slugOf('Event handling rules (`applyBillingEvent.ts`)')).toBe('event-handling-rules-applybillingeventts');
    expect(slugOf('See [the API](api.md) *first*')).toBe('see-the-api-first');
    expect([...anchorsOf('# Tests\n## Tests\n```\n# Not a heading\n```\n### Tests ##\n')]).toEqual(['tests', 'tests-1', 'tests-2']);
  });

  it('finds a missing file, a missing anchor, a link out of the repository, and passes good links and code', () => {
    const files = {
      'README.md': [
        '# Front door',
        '[good](docs/a.md) [good anchor](docs/a.md#the-store-as-a-bundle) [here](#front-door) ![shot](docs/shot.png)',
        '[gone](docs/missing.md) [bad anchor](docs/a.md#the-store) [not here](#back-door) [out](../shared/spec.md)',
        '[web](https://example.com/x.md#nowhere) `[code](docs/nowhere.md)` [folder](docs)',
        '```',
        '[fenced](docs/nowhere.md)',
        '```',
        '[ref]: docs/a.md#not-a-heading',
      ].join('\n'),
      'docs/a.md': '# Fleet\n## The store as a bundle\n```sh\n# not-a-heading\n```\n[back](../README.md#front-door) [line](b.ts#L3) [odd](b.ts#top)',
      'docs/b.ts': '',
      'docs/shot.png': '',
    };
    expect(brokenLinks('README.md', files['README.md'], tree(files))).toEqual([
      'README.md: docs/missing.md (no such file)',
      'README.md: docs/a.md#the-store (no heading of docs/a.md has the anchor #the-store)',
      'README.md: #back-door (no heading of README.md has the anchor #back-door)',
      'README.md: ../shared/spec.md (outside the repository)',
      'README.md: docs/a.md#not-a-heading (no heading of docs/a.md has the anchor #not-a-heading)',
    ]);
    expect(brokenLinks('docs/a.md', files['docs/a.md'], tree(files))).toEqual([
      'docs/a.md: b.ts#top (an anchor into a file that is not Markdown)',
    ]);
  });
});
