/** The order lists of named things are shown in: by name as people read it, then by id so it is total. */
const collator = new Intl.Collator('en', { sensitivity: 'variant', numeric: true });

export function byNameThenId(a: { name: string; id: string }, b: { name: string; id: string }): number {
  return collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The staff members' display order (every list of them, and the `ordered` assignment of an
 * any-staff booking): the staff field `position` (unset ones after the set ones), then name, then id.
 */
export function compareDisplayOrder(
  a: { id: string; name: string; position: number | null },
  b: { id: string; name: string; position: number | null },
): number {
  if (a.position !== b.position) {
    if (a.position === null) return 1;
    if (b.position === null) return -1;
    return a.position - b.position;
  }
  return byNameThenId(a, b);
}
