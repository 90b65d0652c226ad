/**
 * SET items for a partial update: a field left undefined keeps its column, null clears it.
 * Column names come from the caller's fixed map, never from input.
 */
export function setItems<F extends object>(fields: F, columns: { readonly [K in keyof F]?: string }, params: unknown[]): string[] {
  const sets: string[] = [];
  for (const key of Object.keys(columns) as (keyof F)[]) {
    const value = fields[key];
    if (value === undefined) continue;
    params.push(value);
    sets.push(`${columns[key]} = $${params.length}`);
  }
  return sets;
}
