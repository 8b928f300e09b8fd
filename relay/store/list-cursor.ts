/**
 * A list's cursor, as the admin API's Link header and the CLI's `--after` give it: the last shown item's
 * place in the list's order (a merchant's id, `<merchant> <label>` for a till, an audit line's number…),
 * written opaque (base64url) so it is passed back whole rather than edited.
 */

/** The cursor that names `place`. */
export function cursorOf(place: string): string {
  return Buffer.from(place, 'utf8').toString('base64url');
}

/** The place a cursor names, or undefined when the text is not a cursor a list gave. */
export function placeOfCursor(text: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(text)) return undefined;
  const place = Buffer.from(text, 'base64url').toString('utf8');
  return place && cursorOf(place) === text ? place : undefined;
}
