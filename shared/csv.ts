/** CSV cells for every export the till writes (takings, the day's Z, the audit log). */

/** RFC 4180 quoting, and a leading ' on text a spreadsheet would run as a formula. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
