/** Every rate and ratio of a report is a number to 4 decimals (clients-and-reports.md "Reports"). */
export function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** part ÷ whole to 4 decimals; null when the whole is 0, where no rate exists (0 ÷ 0 is not 0 %). */
export function rate(part: number, whole: number): number | null {
  return whole === 0 ? null : round4(part / whole);
}
