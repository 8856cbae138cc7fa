// Entity tags for conditional requests: a hash of the body, and whether a client's If-None-Match names it.
import { createHash } from 'node:crypto';

export const etagOf = (body: Buffer): string => `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;

/** Whether If-None-Match names this ETag (a list, `*`, or a weak form of it). */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch === '') return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
