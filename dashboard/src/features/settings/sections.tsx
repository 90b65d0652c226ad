import { type ReactNode, useId } from 'react';
import { Field, FieldGroup } from '../../components/Field.tsx';
import type { components } from '../../lib/api-types.ts';
import { type Draft, MAX_ORIGINS, MAX_REMINDERS, spokenMinutes } from './draft.ts';
import { ValueList } from './ValueList.tsx';

export type Features = components['schemas']['SubscriptionView']['features'];

interface SectionProps {
  draft: Draft;
  set: (part: Partial<Draft>) => void;
  /** the page's words per refused field (`holdMinutes`, `notifications.reminders.1`) */
  errors: Record<string, string>;
}

function Section(props: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="settings-section" aria-labelledby={id}>
      <h2 id={id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** A whole number of minutes, with how long that is in words. */
function Minutes(props: { label: string; value: string; onChange: (v: string) => void; error: string | undefined; hint?: string }) {
  const spoken = spokenMinutes(props.value);
  const hint = [props.hint, spoken && `That is ${spoken}.`].filter(Boolean).join(' ');
  return (
    <Field label={props.label} error={props.error} hint={hint || undefined}>
      <input type="number" inputMode="numeric" step={1} value={props.value} onChange={(e) => props.onChange(e.target.value)} />
    </Field>
  );
}

function Check(props: {
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  error?: string | undefined;
  hint?: ReactNode;
  disabled?: boolean;
}) {
  return (
    <Field label={props.label} layout="check" error={props.error} hint={props.hint}>
      <input type="checkbox" checked={props.checked} disabled={props.disabled} onChange={(e) => props.onChange(e.target.checked)} />
    </Field>
  );
}

function Text(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error: string | undefined;
  hint?: ReactNode;
  type?: string;
  placeholder?: string;
}) {
  return (
    <Field label={props.label} error={props.error} hint={props.hint}>
      <input
        type={props.type ?? 'text'}
        value={props.value}
        placeholder={props.placeholder}
        autoComplete="off"
        onChange={(e) => props.onChange(e.target.value)}
      />
    </Field>
  );
}

export function BookingPageSection({ draft, set, errors, features }: SectionProps & { features: Features | undefined }) {
  const branding = features?.bookingPageBranding ?? true;
  const brandingHint = branding ? undefined : 'Your plan does not include branding: the page keeps its own colours and shows no logo.';
  return (
    <Section title="Booking page">
      <Check
        label="Booking page on"
        checked={draft.enabled}
        onChange={(enabled) => set({ enabled })}
        error={errors['bookingPage.enabled']}
        hint={draft.enabled ? undefined : 'Off: guests who open the page see that it is not available.'}
      />
      <Minutes
        label="Hold a chosen time (minutes)"
        value={draft.holdMinutes}
        onChange={(holdMinutes) => set({ holdMinutes })}
        error={errors.holdMinutes}
        hint="1 to 30: no one else can take the time while the guest types their details."
      />
      <Field label="Introduction" error={errors['bookingPage.introText']} hint="Shown on the first step; at most 1,000 characters.">
        <textarea rows={3} value={draft.introText} onChange={(e) => set({ introText: e.target.value })} />
      </Field>
      <Text
        label="Accent colour"
        value={draft.accentColor}
        onChange={(accentColor) => set({ accentColor })}
        error={errors['bookingPage.accentColor']}
        placeholder="#1F5FBF"
        hint={brandingHint ?? 'Such as #1F5FBF; empty for the page’s own colour.'}
      />
      <Text
        label="Logo address"
        type="url"
        value={draft.logoUrl}
        onChange={(logoUrl) => set({ logoUrl })}
        error={errors['bookingPage.logoUrl']}
        placeholder="https://"
        hint={brandingHint ?? 'An https address of your logo image; empty for none.'}
      />
      <ValueList
        legend="Websites that may embed the page"
        hint="Your own site can show the booking page in a frame. Write each website as https://host (or https://host:port)."
        itemLabel={(i) => `Website ${i + 1}`}
        removeLabel={(i) => `Remove website ${i + 1}`}
        addLabel="Add website"
        max={MAX_ORIGINS}
        values={draft.embedOrigins}
        onChange={(embedOrigins) => set({ embedOrigins })}
        itemError={(i) => errors[`bookingPage.embedOrigins.${i}`]}
        error={errors['bookingPage.embedOrigins']}
        empty="No other website may embed the page."
        input={{ type: 'url', inputMode: 'url', placeholder: 'https://www.example.com', autoComplete: 'off' }}
      />
      <Text
        label="Terms address"
        type="url"
        value={draft.termsUrl}
        onChange={(termsUrl) => set({ termsUrl })}
        error={errors['bookingPage.termsUrl']}
        placeholder="https://"
        hint="Linked beside the box the guest ticks; empty for none."
      />
      <Text
        label="Terms version"
        value={draft.termsVersion}
        onChange={(termsVersion) => set({ termsVersion })}
        error={errors['bookingPage.termsVersion']}
        hint="Recorded with each booking; change it when the terms change."
      />
      <Text
        label="Privacy notice address"
        type="url"
        value={draft.privacyUrl}
        onChange={(privacyUrl) => set({ privacyUrl })}
        error={errors['bookingPage.privacyUrl']}
        placeholder="https://"
      />
      <Text
        label="Privacy notice version"
        value={draft.privacyNoticeVersion}
        onChange={(privacyNoticeVersion) => set({ privacyNoticeVersion })}
        error={errors['bookingPage.privacyNoticeVersion']}
      />
    </Section>
  );
}

export function GuestSection({ draft, set, errors }: SectionProps) {
  return (
    <Section title="Guest self-service">
      <Check
        label="Guests may cancel"
        checked={draft.cancelAllowed}
        onChange={(cancelAllowed) => set({ cancelAllowed })}
        error={errors['guestCancel.allowed']}
      />
      <Minutes
        label="Cancel up to (minutes before)"
        value={draft.cancelNotice}
        onChange={(cancelNotice) => set({ cancelNotice })}
        error={errors['guestCancel.noticeMinutes']}
      />
      <Check
        label="Guests may reschedule"
        checked={draft.rescheduleAllowed}
        onChange={(rescheduleAllowed) => set({ rescheduleAllowed })}
        error={errors['guestReschedule.allowed']}
      />
      <Minutes
        label="Reschedule up to (minutes before)"
        value={draft.rescheduleNotice}
        onChange={(rescheduleNotice) => set({ rescheduleNotice })}
        error={errors['guestReschedule.noticeMinutes']}
      />
    </Section>
  );
}

export function MessagesSection({ draft, set, errors, features }: SectionProps & { features: Features | undefined }) {
  const smsInPlan = features?.smsNotifications ?? true;
  const smsHint = smsInPlan
    ? undefined
    : draft.sms
      ? 'Your plan no longer includes text messages, so none are sent. You can turn this off.'
      : 'Your plan does not include text messages. Ask your platform operator to add them to turn this on.';
  return (
    <Section title="Messages">
      <Field label="Email to guests" error={errors['notifications.guestEmail']}>
        <select value={draft.guestEmail} onChange={(e) => set({ guestEmail: e.target.value as Draft['guestEmail'] })}>
          <option value="all">For every booking</option>
          <option value="bookingPageOnly">Only for bookings made on the booking page</option>
          <option value="off">Off</option>
        </select>
      </Field>
      <ValueList
        legend="Reminders"
        hint="Sent to the guest before the appointment, in minutes before its start (1 to 10,080)."
        itemLabel={(i) => `Reminder ${i + 1} (minutes before)`}
        removeLabel={(i) => `Remove reminder ${i + 1}`}
        addLabel="Add reminder"
        max={MAX_REMINDERS}
        values={draft.reminders}
        onChange={(reminders) => set({ reminders })}
        itemError={(i) => errors[`notifications.reminders.${i}`]}
        error={errors['notifications.reminders']}
        empty="No reminders are sent."
        itemHint={(v) => (spokenMinutes(v) ? `That is ${spokenMinutes(v)}.` : '')}
        input={{ type: 'number', inputMode: 'numeric', step: 1 }}
      />
      <QuietHours draft={draft} set={set} errors={errors} />
      <Check
        label="Text messages to guests"
        checked={draft.sms}
        disabled={!smsInPlan && !draft.sms}
        onChange={(sms) => set({ sms })}
        error={errors['notifications.sms']}
        hint={smsHint}
      />
      <FieldGroup legend="Email to owners and managers">
        <Check
          label="A new booking request"
          checked={draft.newRequest}
          onChange={(newRequest) => set({ newRequest })}
          error={errors['notifications.businessEmail.newRequest']}
        />
        <Check
          label="A guest cancelled"
          checked={draft.guestCancelled}
          onChange={(guestCancelled) => set({ guestCancelled })}
          error={errors['notifications.businessEmail.guestCancelled']}
        />
      </FieldGroup>
    </Section>
  );
}

function QuietHours({ draft, set, errors }: SectionProps) {
  return (
    <FieldGroup legend="Quiet hours" error={errors['notifications.quietHours']}>
      <p className="hint">
        No message goes to guests in these hours (each location’s own time); an end before the start runs past midnight.
      </p>
      <Check label="Quiet hours on" checked={draft.quietOn} onChange={(quietOn) => set({ quietOn })} />
      {draft.quietOn && (
        <div className="time-pair">
          <Field label="From" error={errors['notifications.quietHours.start']}>
            <input type="time" value={draft.quietStart} onChange={(e) => set({ quietStart: e.target.value })} />
          </Field>
          <Field label="Until" error={errors['notifications.quietHours.end']}>
            <input type="time" value={draft.quietEnd} onChange={(e) => set({ quietEnd: e.target.value })} />
          </Field>
        </div>
      )}
    </FieldGroup>
  );
}

export function WaitlistSection({ draft, set, errors }: SectionProps) {
  return (
    <Section title="Waitlist">
      <Check
        label="Waitlist on"
        checked={draft.waitlistEnabled}
        onChange={(waitlistEnabled) => set({ waitlistEnabled })}
        error={errors['waitlist.enabled']}
      />
      <Minutes
        label="Offer a freed time for (minutes)"
        value={draft.offerMinutes}
        onChange={(offerMinutes) => set({ offerMinutes })}
        error={errors['waitlist.offerMinutes']}
        hint="5 to 1,440: how long a waiting guest has to take a time that became free."
      />
    </Section>
  );
}
