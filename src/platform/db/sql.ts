/** escapes LIKE wildcards so user text matches literally inside `'%' || $n || '%'` */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Builds `SET a = $2, b = $3` from the fields actually sent (an update changes only what it names);
 * `first` is the number of the first placeholder. Returns undefined when nothing is to change.
 */
export function setClause(
  changes: Record<string, unknown>,
  first: number,
): { sql: string; values: unknown[] } | undefined {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return undefined;
  return {
    sql: entries.map(([column], index) => `${column} = $${first + index}`).join(", "),
    values: entries.map(([, value]) => value),
  };
}
