import { type ReactNode, useId } from 'react';
import { Field, FieldGroup } from '../../components/Field.tsx';
import type { components } from '../../lib/api-types.ts';
import { type Draft, MAX_ORIGINS, MAX_REMINDERS, spokenMinutes } from './draft.ts';
import { ValueList } from './ValueList.tsx';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { settingsWords } from './words.ts';

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
  const w = usePageWords(settingsWords);
  const spoken = spokenMinutes(props.value);
  const hint = [props.hint, spoken && w.thatIs(spoken)].filter(Boolean).join(' ');
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
  const w = usePageWords(settingsWords);
  const branding = features?.bookingPageBranding ?? true;
  const brandingHint = branding ? undefined : w.noBranding;
  return (
    <Section title={w.bookingPage}>
      <Check
        label={w.pageOn}
        checked={draft.enabled}
        onChange={(enabled) => set({ enabled })}
        error={errors['bookingPage.enabled']}
        hint={draft.enabled ? undefined : w.pageOff}
      />
      <Minutes
        label={w.hold}
        value={draft.holdMinutes}
        onChange={(holdMinutes) => set({ holdMinutes })}
        error={errors.holdMinutes}
        hint={w.holdHint}
      />
      <Field label={w.introText} error={errors['bookingPage.introText']} hint={w.introHint}>
        <textarea rows={3} value={draft.introText} onChange={(e) => set({ introText: e.target.value })} />
      </Field>
      <Text
        label={w.accent}
        value={draft.accentColor}
        onChange={(accentColor) => set({ accentColor })}
        error={errors['bookingPage.accentColor']}
        placeholder="#1F5FBF"
        hint={brandingHint ?? w.accentHint}
      />
      <Text
        label={w.logo}
        type="url"
        value={draft.logoUrl}
        onChange={(logoUrl) => set({ logoUrl })}
        error={errors['bookingPage.logoUrl']}
        placeholder="https://"
        hint={brandingHint ?? w.logoHint}
      />
      <ValueList
        legend={w.embed}
        hint={w.embedHint}
        itemLabel={(i) => w.website(i + 1)}
        removeLabel={(i) => w.removeWebsite(i + 1)}
        addLabel={w.addWebsite}
        max={MAX_ORIGINS}
        values={draft.embedOrigins}
        onChange={(embedOrigins) => set({ embedOrigins })}
        itemError={(i) => errors[`bookingPage.embedOrigins.${i}`]}
        error={errors['bookingPage.embedOrigins']}
        empty={w.noEmbed}
        input={{ type: 'url', inputMode: 'url', placeholder: 'https://www.example.com', autoComplete: 'off' }}
      />
      <Text
        label={w.terms}
        type="url"
        value={draft.termsUrl}
        onChange={(termsUrl) => set({ termsUrl })}
        error={errors['bookingPage.termsUrl']}
        placeholder="https://"
        hint={w.termsHint}
      />
      <Text
        label={w.termsVersion}
        value={draft.termsVersion}
        onChange={(termsVersion) => set({ termsVersion })}
        error={errors['bookingPage.termsVersion']}
        hint={w.termsVersionHint}
      />
      <Text
        label={w.privacy}
        type="url"
        value={draft.privacyUrl}
        onChange={(privacyUrl) => set({ privacyUrl })}
        error={errors['bookingPage.privacyUrl']}
        placeholder="https://"
      />
      <Text
        label={w.privacyVersion}
        value={draft.privacyNoticeVersion}
        onChange={(privacyNoticeVersion) => set({ privacyNoticeVersion })}
        error={errors['bookingPage.privacyNoticeVersion']}
      />
    </Section>
  );
}

export function GuestSection({ draft, set, errors }: SectionProps) {
  const w = usePageWords(settingsWords);
  return (
    <Section title={w.guests}>
      <Check
        label={w.mayCancel}
        checked={draft.cancelAllowed}
        onChange={(cancelAllowed) => set({ cancelAllowed })}
        error={errors['guestCancel.allowed']}
      />
      <Minutes
        label={w.cancelUpTo}
        value={draft.cancelNotice}
        onChange={(cancelNotice) => set({ cancelNotice })}
        error={errors['guestCancel.noticeMinutes']}
      />
      <Check
        label={w.mayReschedule}
        checked={draft.rescheduleAllowed}
        onChange={(rescheduleAllowed) => set({ rescheduleAllowed })}
        error={errors['guestReschedule.allowed']}
      />
      <Minutes
        label={w.rescheduleUpTo}
        value={draft.rescheduleNotice}
        onChange={(rescheduleNotice) => set({ rescheduleNotice })}
        error={errors['guestReschedule.noticeMinutes']}
      />
    </Section>
  );
}

export function MessagesSection({ draft, set, errors, features }: SectionProps & { features: Features | undefined }) {
  const w = usePageWords(settingsWords);
  const smsInPlan = features?.smsNotifications ?? true;
  const smsHint = smsInPlan ? undefined : draft.sms ? w.smsGone : w.smsNotInPlan;
  return (
    <Section title={w.messages}>
      <Field label={w.guestEmail} error={errors['notifications.guestEmail']}>
        <select value={draft.guestEmail} onChange={(e) => set({ guestEmail: e.target.value as Draft['guestEmail'] })}>
          <option value="all">{w.emailAll}</option>
          <option value="bookingPageOnly">{w.emailPageOnly}</option>
          <option value="off">{w.off}</option>
        </select>
      </Field>
      <ValueList
        legend={w.reminders}
        hint={w.remindersHint}
        itemLabel={(i) => w.reminder(i + 1)}
        removeLabel={(i) => w.removeReminder(i + 1)}
        addLabel={w.addReminder}
        max={MAX_REMINDERS}
        values={draft.reminders}
        onChange={(reminders) => set({ reminders })}
        itemError={(i) => errors[`notifications.reminders.${i}`]}
        error={errors['notifications.reminders']}
        empty={w.noReminders}
        itemHint={(v) => (spokenMinutes(v) ? w.thatIs(spokenMinutes(v)) : '')}
        input={{ type: 'number', inputMode: 'numeric', step: 1 }}
      />
      <QuietHours draft={draft} set={set} errors={errors} />
      <Check
        label={w.sms}
        checked={draft.sms}
        disabled={!smsInPlan && !draft.sms}
        onChange={(sms) => set({ sms })}
        error={errors['notifications.sms']}
        hint={smsHint}
      />
      <FieldGroup legend={w.teamEmail}>
        <Check
          label={w.newRequest}
          checked={draft.newRequest}
          onChange={(newRequest) => set({ newRequest })}
          error={errors['notifications.businessEmail.newRequest']}
        />
        <Check
          label={w.guestCancelled}
          checked={draft.guestCancelled}
          onChange={(guestCancelled) => set({ guestCancelled })}
          error={errors['notifications.businessEmail.guestCancelled']}
        />
      </FieldGroup>
    </Section>
  );
}

function QuietHours({ draft, set, errors }: SectionProps) {
  const w = usePageWords(settingsWords);
  return (
    <FieldGroup legend={w.quiet} error={errors['notifications.quietHours']}>
      <p className="hint">{w.quietHint}</p>
      <Check label={w.quietOn} checked={draft.quietOn} onChange={(quietOn) => set({ quietOn })} />
      {draft.quietOn && (
        <div className="time-pair">
          <Field label={w.from} error={errors['notifications.quietHours.start']}>
            <input type="time" value={draft.quietStart} onChange={(e) => set({ quietStart: e.target.value })} />
          </Field>
          <Field label={w.until} error={errors['notifications.quietHours.end']}>
            <input type="time" value={draft.quietEnd} onChange={(e) => set({ quietEnd: e.target.value })} />
          </Field>
        </div>
      )}
    </FieldGroup>
  );
}

export function WaitlistSection({ draft, set, errors }: SectionProps) {
  const w = usePageWords(settingsWords);
  return (
    <Section title={w.waitlist}>
      <Check
        label={w.waitlistOn}
        checked={draft.waitlistEnabled}
        onChange={(waitlistEnabled) => set({ waitlistEnabled })}
        error={errors['waitlist.enabled']}
      />
      <Minutes
        label={w.offer}
        value={draft.offerMinutes}
        onChange={(offerMinutes) => set({ offerMinutes })}
        error={errors['waitlist.offerMinutes']}
        hint={w.offerHint}
      />
    </Section>
  );
}
