/**
 * A business's guest settings (guest-side.md "Guest settings of a business"): how its booking page,
 * holds, guest self-service, guest messages and waitlist behave. Every field has a default; a
 * business stores only what it changed (`stored` below), so a default changed later reaches every
 * business that never set that field.
 */

export const GUEST_EMAIL_MODES = ['all', 'bookingPageOnly', 'off'] as const;
export type GuestEmailMode = (typeof GUEST_EMAIL_MODES)[number];

export interface GuestNotice {
  allowed: boolean;
  noticeMinutes: number;
}

export interface QuietHours {
  /** location-local HH:MM */
  start: string;
  end: string;
}

export interface GuestSettings {
  bookingPage: {
    enabled: boolean;
    introText: string | null;
    accentColor: string | null;
    logoUrl: string | null;
    embedOrigins: string[];
    termsUrl: string | null;
    privacyUrl: string | null;
    termsVersion: string;
    privacyNoticeVersion: string;
  };
  holdMinutes: number;
  guestCancel: GuestNotice;
  guestReschedule: GuestNotice;
  notifications: {
    guestEmail: GuestEmailMode;
    reminders: Array<{ minutesBefore: number }>;
    quietHours: QuietHours | null;
    sms: boolean;
    businessEmail: { newRequest: boolean; guestCancelled: boolean };
  };
  waitlist: { enabled: boolean; offerMinutes: number };
}

/** Any subset of the settings, at any depth. */
export type GuestSettingsPatch = DeepPartial<GuestSettings>;
type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

/** The bounds of guest-side.md's table; the request schema and the rules below read them. */
export const LIMITS = {
  introTextMaxChars: 1000,
  urlMaxChars: 2000,
  versionMaxChars: 64,
  embedOriginsMax: 20,
  holdMinutes: { min: 1, max: 30 },
  noticeMinutes: { min: 0, max: 20_160 },
  remindersMax: 3,
  reminderMinutesBefore: { min: 1, max: 10_080 },
  offerMinutes: { min: 5, max: 1440 },
} as const;

export function defaultGuestSettings(): GuestSettings {
  return {
    bookingPage: {
      enabled: true,
      introText: null,
      accentColor: null,
      logoUrl: null,
      embedOrigins: [],
      termsUrl: null,
      privacyUrl: null,
      termsVersion: '1',
      privacyNoticeVersion: '1',
    },
    holdMinutes: 10,
    guestCancel: { allowed: true, noticeMinutes: 1440 },
    guestReschedule: { allowed: true, noticeMinutes: 1440 },
    notifications: {
      guestEmail: 'all',
      reminders: [{ minutesBefore: 1440 }],
      quietHours: { start: '21:00', end: '08:00' },
      sms: false,
      businessEmail: { newRequest: true, guestCancelled: true },
    },
    waitlist: { enabled: true, offerMinutes: 30 },
  };
}
