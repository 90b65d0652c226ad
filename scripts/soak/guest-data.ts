/**
 * Guest contact data the workload sends, and the scan that proves none of it comes back in a
 * response or reaches a log line. Phones are sent in compact E.164 (+3670 and seven digits), the
 * same text the service stores, so a leak shows as one run of digits whether it is the input or the
 * normalised value; e-mails all use one reserved domain.
 */
export const GUEST_EMAIL_DOMAIN = 'soak-guest.example';

export class GuestData {
  private readonly phones = new Set<string>();
  private next: number;

  constructor(seed: number) {
    this.next = seed % 5_000_000;
  }

  /** A new guest: a phone never used before in this run and an e-mail at the reserved domain. */
  guest(name: string): { name: string; phone: string; email: string } {
    this.next += 1;
    const digits = `3670${String(1_000_000 + (this.next % 9_000_000)).padStart(7, '0')}`;
    this.phones.add(digits);
    return { name, phone: `+${digits}`, email: `g${this.next}@${GUEST_EMAIL_DOMAIN}` };
  }

  get count(): number {
    return this.phones.size;
  }

  /** What of the guest data the text contains: e-mail domain hits and known phones (digits or national form). */
  leaksIn(text: string): string[] {
    const out: string[] = [];
    if (text.toLowerCase().includes(GUEST_EMAIL_DOMAIN)) out.push(`e-mail at ${GUEST_EMAIL_DOMAIN}`);
    // the same digits split by separators (+36 70 123 4567) are caught by the second pass
    for (const m of text.matchAll(/\d{9,}/g)) {
      const run = m[0];
      // as sent and stored (36…), without the country code (70…), or national with the trunk prefix (06…)
      for (const phone of [run, `36${run}`, run.startsWith('06') ? `36${run.slice(2)}` : '']) {
        if (this.phones.has(phone)) out.push(`phone ${phone.slice(0, 4)}…`);
      }
    }
    for (const m of text.matchAll(/\+?36[\s-]?70[\s-]?\d{3}[\s-]?\d{4}/g)) {
      const digits = m[0].replace(/\D/g, '');
      if (m[0] !== `+${digits}` && this.phones.has(digits)) out.push(`phone ${digits.slice(0, 4)}… (spaced)`);
    }
    return out;
  }
}
