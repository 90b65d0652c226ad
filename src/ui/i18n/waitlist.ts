import type { Lang } from './index.ts';

/**
 * The waitlist pages' words (guest-side.md "Waitlist"), a catalog of their own beside the booking
 * page's. Accessible names the spec fixes (`Join the waitlist`, `Name`, `Phone`, `Email`, `From`,
 * `To`, `Earliest time`, `Latest time`, `Any staff`) are written exactly as it spells them.
 */
const en = {
  join: 'Join the waitlist',
  noSuitableTime: 'No time that suits you?',
  noTimeJoinHint: 'Join the waitlist and we will offer you a time as soon as one frees up.',
  joinTitle: 'Join the waitlist',
  joinIntro: (service: string) =>
    `Tell us when you could come for ${service}. When a matching time frees up, we hold it for you and send you a link to book it.`,
  name: 'Name',
  phone: 'Phone',
  email: 'Email',
  emailHint: 'The offer of a freed time comes here.',
  from: 'From',
  to: 'To',
  earliest: 'Earliest time',
  latest: 'Latest time',
  windowHint: 'The appointment starts between these two times.',
  staff: 'Staff',
  anyStaff: 'Any staff',
  submit: 'Join the waitlist',
  errorsHeading: 'Please check the form',
  err: {
    name: { required: 'Please enter your name.', tooLong: 'Please shorten your name to at most 100 characters.' },
    phone: {
      required: 'Please enter your phone number.',
      invalid: 'This does not look like a phone number. Include the country code, for example +36.',
    },
    email: { required: 'Please enter your email address.', invalid: 'This does not look like an email address.' },
    from: {
      required: 'Please enter the first day you could come.',
      invalid: 'Please enter a date, for example 2026-05-04.',
      past: 'This day has already passed. Please choose today or a later day.',
      beyondHorizon: 'The salon does not take bookings that far ahead yet.',
    },
    to: {
      required: 'Please enter the last day you could come.',
      invalid: 'Please enter a date, for example 2026-05-10.',
      beforeFrom: 'The last day cannot be before the first day.',
      beyondHorizon: 'The salon does not take bookings that far ahead yet.',
    },
    earliest: { required: 'Please enter the earliest time you could start.', invalid: 'Please enter a time, for example 09:00.' },
    latest: {
      required: 'Please enter the latest time you could start.',
      invalid: 'Please enter a time, for example 17:30.',
      beforeEarliest: 'The latest time cannot be before the earliest time.',
    },
    staff: { invalid: 'Please choose someone from the list, or Any staff.' },
  } as Record<string, Record<string, string>>,
  joinedTitle: 'You are on the waitlist',
  joinedText:
    'We will email you as soon as a matching time frees up. The time is then held for you for a while: book it through the link in the email. Each email also has a link to leave the waitlist.',
  backToBooking: 'Back to the booking page',
  claimTitle: 'A time has freed up for you',
  heldUntil: (time: string) => `We hold this time for you until ${time}.`,
  claimBook: 'Book this time',
  offerEndedTitle: 'This offer has ended',
  offerEndedText:
    'The time was held for you for a limited while, and that has passed, so it was offered to the next person on the waitlist. You are still on the waitlist unless you booked or left it.',
  offerBookedTitle: 'This time is already booked',
  offerBookedText: 'This offer was already used to book the time. Check your email for the confirmation.',
  withdrawTitle: 'Leave the waitlist',
  withdrawText: (service: string, from: string, to: string) => `You are waiting for ${service} between ${from} and ${to}.`,
  withdrawConfirm: 'Leave the waitlist',
  withdrawnTitle: 'You have left the waitlist',
  withdrawnText: 'You will get no more offers for this waitlist entry.',
  endedTitle: 'This waitlist entry has ended',
  endedText: 'It was booked, withdrawn, or its last day has passed. There is nothing more to do here.',
  linkNotFoundTitle: 'This link does not work',
  linkNotFoundText: 'The link is not complete, or it no longer exists. Please use the latest email from the salon.',
};

export type WaitlistMessages = typeof en;

const hu: WaitlistMessages = {
  join: 'Feliratkozás a várólistára',
  noSuitableTime: 'Nincs megfelelő időpont?',
  noTimeJoinHint: 'Iratkozzon fel a várólistára, és amint felszabadul egy időpont, felajánljuk Önnek.',
  joinTitle: 'Feliratkozás a várólistára',
  joinIntro: (service: string) =>
    `Adja meg, mikor tudna jönni (${service}). Ha felszabadul egy megfelelő időpont, lefoglaljuk Önnek, és küldünk egy linket, amellyel lefoglalhatja.`,
  name: 'Név',
  phone: 'Telefon',
  email: 'E-mail',
  emailHint: 'Ide küldjük a felszabadult időpont ajánlatát.',
  from: 'Ettől',
  to: 'Eddig',
  earliest: 'Legkorábbi kezdés',
  latest: 'Legkésőbbi kezdés',
  windowHint: 'Az időpont e két idő között kezdődik.',
  staff: 'Munkatárs',
  anyStaff: 'Bárki',
  submit: 'Feliratkozás a várólistára',
  errorsHeading: 'Kérjük, ellenőrizze az űrlapot',
  err: {
    name: { required: 'Kérjük, adja meg a nevét.', tooLong: 'Kérjük, rövidítse a nevet legfeljebb 100 karakterre.' },
    phone: {
      required: 'Kérjük, adja meg a telefonszámát.',
      invalid: 'Ez nem tűnik telefonszámnak. Adja meg az országkóddal, például +36.',
    },
    email: { required: 'Kérjük, adja meg az e-mail-címét.', invalid: 'Ez nem tűnik e-mail-címnek.' },
    from: {
      required: 'Kérjük, adja meg az első napot, amikor jönni tudna.',
      invalid: 'Kérjük, dátumot adjon meg, például 2026-05-04.',
      past: 'Ez a nap már elmúlt. Kérjük, a mai vagy egy későbbi napot válasszon.',
      beyondHorizon: 'A szalon ilyen távolra még nem fogad foglalást.',
    },
    to: {
      required: 'Kérjük, adja meg az utolsó napot, amikor jönni tudna.',
      invalid: 'Kérjük, dátumot adjon meg, például 2026-05-10.',
      beforeFrom: 'Az utolsó nap nem lehet az első nap előtt.',
      beyondHorizon: 'A szalon ilyen távolra még nem fogad foglalást.',
    },
    earliest: { required: 'Kérjük, adja meg a legkorábbi kezdést.', invalid: 'Kérjük, időt adjon meg, például 09:00.' },
    latest: {
      required: 'Kérjük, adja meg a legkésőbbi kezdést.',
      invalid: 'Kérjük, időt adjon meg, például 17:30.',
      beforeEarliest: 'A legkésőbbi kezdés nem lehet a legkorábbi előtt.',
    },
    staff: { invalid: 'Kérjük, válasszon valakit a listából, vagy a Bárki lehetőséget.' },
  },
  joinedTitle: 'Felkerült a várólistára',
  joinedText:
    'Amint felszabadul egy megfelelő időpont, e-mailt küldünk. Az időpontot egy ideig Önnek tartjuk: az e-mailben lévő linkkel foglalhatja le. Minden e-mailben van egy link a várólistáról való leiratkozáshoz is.',
  backToBooking: 'Vissza a foglalási oldalra',
  claimTitle: 'Felszabadult egy időpont Önnek',
  heldUntil: (time: string) => `Ezt az időpontot ${time}-ig tartjuk Önnek.`,
  claimBook: 'Lefoglalom ezt az időpontot',
  offerEndedTitle: 'Ez az ajánlat lejárt',
  offerEndedText:
    'Az időpontot korlátozott ideig tartottuk Önnek, ez letelt, ezért a várólista következő vendégének ajánlottuk fel. Továbbra is a várólistán van, hacsak nem foglalt vagy iratkozott le.',
  offerBookedTitle: 'Ezt az időpontot már lefoglalták',
  offerBookedText: 'Ezzel az ajánlattal már lefoglalták az időpontot. A visszaigazolást e-mailben találja.',
  withdrawTitle: 'Leiratkozás a várólistáról',
  withdrawText: (service: string, from: string, to: string) => `Erre vár: ${service}, ${from} és ${to} között.`,
  withdrawConfirm: 'Leiratkozom a várólistáról',
  withdrawnTitle: 'Leiratkozott a várólistáról',
  withdrawnText: 'Erre a várólistás bejegyzésre több ajánlatot nem kap.',
  endedTitle: 'Ez a várólistás bejegyzés lezárult',
  endedText: 'Lefoglalták, visszavonták, vagy elmúlt az utolsó napja. Itt nincs több teendő.',
  linkNotFoundTitle: 'Ez a link nem működik',
  linkNotFoundText: 'A link nem teljes, vagy már nem létezik. Kérjük, a szalon legutóbbi e-mailjét használja.',
};

const CATALOGS: Record<Lang, WaitlistMessages> = { en, hu };

export function waitlistMessages(lang: Lang): WaitlistMessages {
  return CATALOGS[lang];
}
