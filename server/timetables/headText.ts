// The JSON text of what a timetable body says before its days (location, method, madhab, time zone…), written
// without JSON.stringify walking the catalog's Location objects again on every request: a point's Location holds its
// nearest place's (`nearestCity`), a place's its `urls`, and those nested objects live as long as the catalog keeps
// them, so each is serialized once and its text reused. The text equals JSON.stringify's for the same object
// (dayBody.test.ts and monthBody.test.ts compare the bodies byte for byte).

/** JSON texts of nested objects, by object: the catalog's Location objects and their `urls` (never changed once made). */
const nestedTexts = new WeakMap<object, string>();

function nestedText(value: object): string {
  let text = nestedTexts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    nestedTexts.set(value, text);
  }
  return text;
}

/** `"key":value` pairs of one object, comma-separated: its scalars as JSON.stringify writes them, its objects kept. */
function membersText(object: Record<string, unknown>): string {
  let text = '';
  for (const key in object) {
    const value = object[key];
    // JSON.stringify leaves out what has no JSON (undefined, functions): so does this.
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    if (text !== '') text += ',';
    text += `${JSON.stringify(key)}:${typeof value === 'object' && value !== null ? nestedText(value) : JSON.stringify(value)}`;
  }
  return text;
}

/**
 * `{"location":{…},"method":{…},…` without its closing brace: the head's values written member by member (a point's
 * Location and the method are new objects each request), the objects inside them from the kept texts.
 */
export function headText(head: Record<string, unknown>): string {
  let text = '';
  for (const key in head) {
    const value = head[key];
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    if (text !== '') text += ',';
    text += `${JSON.stringify(key)}:${typeof value === 'object' && value !== null && !Array.isArray(value) ? `{${membersText(value as Record<string, unknown>)}}` : JSON.stringify(value)}`;
  }
  return `{${text}`;
}
