/**
 * The messages log's masks (guest-side.md "Notifications"): a recipient shows its first character
 * and domain (email) or its country code, first group and last two digits (phone), never more;
 * an error text never carries the recipient.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { maskEmail, maskErrorText, maskPhone, maskRecipient } from '../../src/domain/messages/mask.ts';

const SEPARATORS = [' ', '-', '.', '/', '(', ')'];
const digit = fc.constantFrom(...'0123456789');
const digitGroup = fc.array(digit, { minLength: 1, maxLength: 5 }).map((d) => d.join(''));

/** A number as people write it: an optional +, groups of digits, a separator between each. */
const writtenNumber = fc
  .record({
    plus: fc.boolean(),
    groups: fc.array(digitGroup, { minLength: 1, maxLength: 6 }),
    seps: fc.array(fc.constantFrom(...SEPARATORS), { minLength: 6, maxLength: 6 }),
  })
  .map(({ plus, groups, seps }) => ({
    plus,
    groups,
    text: (plus ? '+' : '') + groups.map((g, i) => (i === 0 ? g : seps[i - 1] + g)).join(''),
  }));

/** Anything a phone field might hold, letters and stray signs included. */
const anyPhoneText = fc.string({ unit: fc.constantFrom(...'0123456789+ -()./x#ext', 'é'), maxLength: 30 });

/** How many digits of n must stay hidden: all of a short number, else at least half and at least three. */
function mustHide(n: number): number {
  return n <= 4 ? n : Math.max(3, Math.floor(n / 2));
}

function digitsOf(s: string): string {
  return s.replace(/\D/g, '');
}

/** The digit or star in each digit position of a masked number. */
function slotsOf(masked: string): string[] {
  return Array.from(masked).filter((c) => c === '*' || (c >= '0' && c <= '9'));
}

describe('recipient masks', () => {
  test('the spec examples and the usual ways of writing a number', () => {
    assert.equal(maskEmail('peter@example.com'), 'p***@example.com');
    assert.equal(maskPhone('+36 30 123 4567'), '+36 30 *** **67');
    assert.equal(maskPhone('+36301234567'), '+3630*****67');
    assert.equal(maskPhone('06 30 123 4567'), '06 ** *** **67');
    assert.equal(maskPhone('(30) 123-4567'), '(30) ***-**67');
    assert.equal(maskPhone('+1 (555) 010-2030'), '+1 (555) ***-**30');
    assert.equal(maskPhone('1234'), '****');
    assert.equal(maskPhone('12345'), '***45');
    assert.equal(maskPhone('+36 30 123 4567 ext. 9'), '+36 30 *** ***7 . 9');
    assert.equal(maskPhone(''), '');
    assert.equal(maskEmail('no-at-sign'), 'n***');
    assert.equal(maskEmail('"a@b"@example.com'), '"***@example.com');
    assert.equal(maskEmail('élise@example.hu'), 'é***@example.hu');
    assert.equal(maskRecipient('email', 'Anna@Example.com'), 'A***@Example.com');
    assert.equal(maskRecipient('sms', '+36 30 123 4567'), '+36 30 *** **67');
  });

  test('email: the first character, ***, the domain; nothing else of the local part', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).filter((s) => !s.includes('@')),
        fc.domain(),
        (local, domain) => {
          const masked = maskEmail(`${local}@${domain}`);
          assert.equal(masked, `${Array.from(local)[0]}***@${domain}`);
        },
      ),
    );
  });

  test('phone: digits stay in place, only the leading groups and the last two are shown, at least half hidden', () => {
    fc.assert(
      fc.property(writtenNumber, ({ plus, groups, text }) => {
        const masked = maskPhone(text);
        const digits = digitsOf(text);
        const n = digits.length;
        const slots = slotsOf(masked);
        assert.equal(slots.length, n, masked);
        // the layout is kept: the same characters where there is no digit
        assert.equal(masked.replace(/[0-9*]/g, '#'), text.replace(/[0-9]/g, '#'));
        const hidden = slots.filter((c) => c === '*').length;
        assert.ok(hidden >= mustHide(n), `${text} → ${masked}`);
        const leading = groups.slice(0, plus ? 2 : 1).join('').length;
        slots.forEach((c, i) => {
          if (c === '*') return;
          assert.equal(c, digits[i], `${text} → ${masked}`);
          assert.ok(i < leading || i >= n - 2, `digit ${i} of ${text} shown: ${masked}`);
        });
        // shown head digits are a prefix, shown tail digits the last two
        const firstStar = slots.indexOf('*');
        if (firstStar >= 0)
          assert.ok(
            slots.slice(firstStar, n - 2).every((c) => c === '*'),
            masked,
          );
      }),
    );
  });

  test('phone: whatever the field holds, the mask holds only digits of it, stars and separators', () => {
    fc.assert(
      fc.property(anyPhoneText, (text) => {
        const masked = maskPhone(text);
        assert.match(masked, /^[0-9*+ ()./-]*$/);
        const digits = digitsOf(text);
        const slots = slotsOf(masked);
        assert.equal(slots.length, digits.length);
        const shown = slots.filter((c) => c !== '*').length;
        assert.ok(shown <= digits.length - mustHide(digits.length), `${text} → ${masked}`);
        if (digits.length >= 4) assert.ok(!masked.includes(digits), `${text} → ${masked}`);
      }),
    );
  });
});

describe('error text mask', () => {
  const noise = fc.string({ unit: fc.constantFrom(...'abc XYZ:;<>[]()550 5.1.1 -'), maxLength: 20 });

  test('an email recipient, in any case, its local part and other addresses are masked', () => {
    fc.assert(
      fc.property(
        fc.emailAddress().filter((e) => e.slice(0, e.lastIndexOf('@')).length >= 3),
        fc.array(noise, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (email, words, upper) => {
          const local = email.slice(0, email.lastIndexOf('@'));
          const quoted = upper ? email.toUpperCase() : email;
          const text = `${words.join(` <${quoted}> `)} user ${local} unknown`;
          const out = maskErrorText(text, 'email', email);
          assert.ok(!out.toLowerCase().includes(email.toLowerCase()), out);
          assert.ok(!out.toLowerCase().includes(local.toLowerCase()), `${local} in ${out}`);
          if (words.length > 1) assert.ok(out.includes(maskEmail(email)), out);
        },
      ),
    );
  });

  test('a phone recipient is masked as written and as bare digits; other long numbers too', () => {
    fc.assert(
      fc.property(
        writtenNumber.filter((p) => digitsOf(p.text).length >= 7),
        noise,
        ({ text: phone }, words) => {
          const digits = digitsOf(phone);
          const text = `gateway refused ${phone} ${words} (to=${digits})`;
          const out = maskErrorText(text, 'sms', phone);
          assert.ok(!out.includes(phone), out);
          assert.ok(!digitsOf(out).includes(digits), out);
          assert.ok(out.includes(maskPhone(phone)), out);
        },
      ),
    );
  });

  test('short numbers, status codes and dates stay readable', () => {
    assert.equal(
      maskErrorText('550 5.1.1 <peter@example.com>: Recipient address rejected (2026-11-28)', 'email', 'peter@example.com'),
      '550 5.1.1 <p***@example.com>: Recipient address rejected (2026-11-28)',
    );
    assert.equal(
      maskErrorText('HTTP 502 from gateway for +36301234567, also tried 06 20 765 4321', 'sms', '+36 30 123 4567'),
      'HTTP 502 from gateway for +3630*****67, also tried 06 ** *** **21',
    );
    assert.equal(maskErrorText('connect ECONNREFUSED 127.0.0.1:2525', 'email', 'peter@example.com'), 'connect ECONNREFUSED 127.0.0.1:2525');
  });
});
