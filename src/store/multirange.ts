/**
 * A list of [from, to) ranges as a tstzmultirange literal: one parameter, whatever the count,
 * cast with `::tstzmultirange` in the statement. Instants in ISO form keep the milliseconds.
 */
export function multirangeLiteral(ranges: ReadonlyArray<{ from: Date; to: Date }>): string {
  return `{${ranges.map((r) => `["${r.from.toISOString()}","${r.to.toISOString()}")`).join(',')}}`;
}
