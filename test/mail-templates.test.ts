/**
 * Every message kind in both languages (src/ui/mail): the subject names the business, the local date
 * and time and the zone; both parts carry the same details and the guest's manage link (never in a
 * business mail); the .ics is REQUEST or CANCEL, one UID, SEQUENCE = state version (node-ical).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import ical from 'node-ical';
import { BUSINESS_MESSAGE_KINDS, GUEST_MESSAGE_KINDS } from '../src/domain/messages/kinds.ts';
import { mailContent, mailText, smsText } from '../src/ui/mail/content.ts';
import { messageCalendar } from '../src/ui/mail/ics.ts';
import { mailHtml } from '../src/ui/mail/mail-html.tsx';
import { mailMessages } from '../src/ui/mail/catalog.ts';

const booking = {
  publicReference: 'ABC123',
  serviceName: 'Haircut',
  staffName: 'Anna',
  guestName: 'Kiss <Éva>',
  locationName: 'Downtown',
  address: 'Váci utca 1., 1052 Budapest',
  timezone: 'Europe/Budapest',
  status: 'confirmed' as const,
  stateVersion: 4,
  time: {
    date: '2031-06-03',
    startTime: '10:00',
    endTime: '10:30',
    startAt: '2031-06-03T08:00:00.000Z',
    endAt: '2031-06-03T08:30:00.000Z',
  },
  proposed: {
    date: '2031-06-04',
    startTime: '11:00',
    endTime: '11:30',
    startAt: '2031-06-04T09:00:00.000Z',
    endAt: '2031-06-04T09:30:00.000Z',
  },
};
const offer = {
  offerId: 'wlo_1',
  claimNonce: 'c',
  withdrawNonce: 'w',
  serviceName: 'Haircut',
  staffName: null,
  date: '2031-06-05',
  startTime: '09:30',
  timezone: 'Europe/Budapest',
  locationName: 'Downtown',
  salonName: 'Salon Bella',
  expiresAt: '2031-06-01T12:30:00.000Z',
};

for (const lang of ['en', 'hu'] as const) {
  describe(`message templates [${lang}]`, () => {
    for (const kind of [...GUEST_MESSAGE_KINDS, ...BUSINESS_MESSAGE_KINDS]) {
      test(kind, () => {
        const guest = !kind.startsWith('business.');
        const c =
          kind === 'waitlist.offer'
            ? mailContent({
                kind,
                lang,
                offer,
                claimUrl: 'https://b.example/claim/t1',
                withdrawUrl: 'https://b.example/waitlist/withdraw/t2',
              })
            : mailContent({
                kind,
                lang,
                businessName: 'Salon Bella',
                booking,
                manageUrl: guest ? 'https://b.example/manage/tok' : null,
                dashboardUrl: guest ? null : 'https://b.example/dashboard/',
              });
        const t = mailMessages(lang);
        assert.ok(c.subject.startsWith(`Salon Bella: ${t.title[kind]} – `), c.subject);
        assert.match(
          c.subject,
          kind === 'waitlist.offer'
            ? /09:30/
            : kind === 'booking.reschedule_proposed'
              ? /11:00 \(Europe\/Budapest\)$/
              : /10:00 \(Europe\/Budapest\)$/,
        );
        const text = mailText(c);
        const html = mailHtml(c);
        assert.match(text, /\(Europe\/Budapest\)/);
        assert.ok(html.includes(`lang="${lang}"`));
        for (const d of c.details) {
          assert.ok(text.includes(d.value), `text has ${d.label}`);
        }
        if (kind === 'waitlist.offer') {
          assert.ok(text.includes('https://b.example/claim/t1') && html.includes('https://b.example/waitlist/withdraw/t2'));
        } else if (guest) {
          assert.ok(text.includes('https://b.example/manage/tok') && html.includes('https://b.example/manage/tok'));
          assert.ok(smsText(c).includes('https://b.example/manage/tok'));
        } else {
          assert.ok(!text.includes('/manage/'));
          assert.ok(text.includes('Kiss <Éva>') && html.includes('Kiss &lt;Éva&gt;'), 'the name is escaped in HTML');
        }
      });
    }
  });
}

describe('calendar files', () => {
  for (const method of ['REQUEST', 'CANCEL'] as const) {
    test(`${method}: one UID per booking, SEQUENCE = state version, parsed by node-ical`, () => {
      const text = messageCalendar('bkg_1', booking, {
        method,
        businessName: 'Salon Bella',
        uidDomain: 'b.example',
        organizerEmail: 'bookings@b.example',
        manageUrl: 'https://b.example/manage/tok',
        now: new Date('2031-06-01T12:00:00Z'),
      });
      const parsed = ical.sync.parseICS(text);
      assert.equal((parsed.vcalendar as any).method, method);
      const event = parsed['bkg_1@b.example'] as any;
      assert.equal(Number(event.sequence), 4);
      assert.equal(new Date(event.start).toISOString(), '2031-06-03T08:00:00.000Z');
      assert.equal(event.status, method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED');
    });
  }
});
