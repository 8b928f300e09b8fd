/** A list of string constants as SQL literals for `IN (…)`: state lists in SQL are built from the vocabulary, never retyped. */
export function sqlList(values: readonly string[]): string {
  return values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ');
}
