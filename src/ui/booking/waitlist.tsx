import type { JoinErrors, JoinField, JoinForm } from '../../domain/waitlist/join.ts';
import type { Messages } from '../i18n/index.ts';
import type { WaitlistMessages } from '../i18n/waitlist.ts';
import { Notice } from './layout.tsx';

/** One labelled input with its problem beside it (the error's words name what to do). */
function Field(p: {
  id: JoinField;
  label: string;
  value: string;
  error: string | undefined;
  hint?: string | undefined;
  type: string;
  autoComplete?: string;
  inputMode?: 'tel' | 'email';
}) {
  const inputId = `w-${p.id}`;
  const errorId = p.error ? `${inputId}-error` : undefined;
  const hintId = p.hint ? `${inputId}-hint` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={p.error ? 'field invalid' : 'field'}>
      <label htmlFor={inputId}>{p.label}</label>
      {p.hint ? (
        <p className="hint" id={hintId}>
          {p.hint}
        </p>
      ) : null}
      {p.error ? (
        <p className="error" id={errorId}>
          {p.error}
        </p>
      ) : null}
      <input
        id={inputId}
        name={p.id}
        type={p.type}
        inputMode={p.inputMode}
        autoComplete={p.autoComplete ?? 'off'}
        aria-describedby={describedBy}
        aria-invalid={p.error ? true : undefined}
        aria-required={true}
        defaultValue={p.value}
      />
    </div>
  );
}

export interface JoinProps {
  w: WaitlistMessages;
  t: Messages;
  serviceName: string;
  action: string;
  hidden: Record<string, string>;
  staff: Array<{ id: string; name: string }>;
  values: JoinForm;
  errors: JoinErrors;
  backHref: string;
}

/** The waitlist's join form (guest-side.md "Waitlist"): each problem beside its field, values kept. */
export function JoinStep(p: JoinProps) {
  const { w, values, errors } = p;
  const err = (f: JoinField) => (errors[f] ? (w.err[f]?.[errors[f]!] ?? w.errorsHeading) : undefined);
  const count = Object.keys(errors).length;
  return (
    <>
      <p className="where">{p.serviceName}</p>
      <h1>{w.joinTitle}</h1>
      {count > 0 ? <Notice title={w.errorsHeading} kind="error" /> : null}
      <p>{w.joinIntro(p.serviceName)}</p>
      <form method="post" action={p.action} noValidate>
        {Object.entries(p.hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Field id="name" label={w.name} value={values.name} error={err('name')} type="text" autoComplete="name" />
        <Field id="phone" label={w.phone} value={values.phone} error={err('phone')} type="tel" inputMode="tel" autoComplete="tel" />
        <Field
          id="email"
          label={w.email}
          value={values.email}
          error={err('email')}
          hint={w.emailHint}
          type="email"
          inputMode="email"
          autoComplete="email"
        />
        <Field id="from" label={w.from} value={values.from} error={err('from')} type="date" />
        <Field id="to" label={w.to} value={values.to} error={err('to')} type="date" />
        <Field id="earliest" label={w.earliest} value={values.earliest} error={err('earliest')} hint={w.windowHint} type="time" />
        <Field id="latest" label={w.latest} value={values.latest} error={err('latest')} type="time" />
        {p.staff.length > 0 ? (
          <div className={errors.staff ? 'field invalid' : 'field'}>
            <label htmlFor="w-staff">{w.staff}</label>
            {errors.staff ? (
              <p className="error" id="w-staff-error">
                {err('staff')}
              </p>
            ) : null}
            <select id="w-staff" name="staff" defaultValue={values.staff} aria-describedby={errors.staff ? 'w-staff-error' : undefined}>
              <option value="any">{w.anyStaff}</option>
              {p.staff.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div className="hp">
          <label htmlFor="w-website">{p.t.honeypotLabel}</label>
          <input id="w-website" type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <p>
          <button type="submit" className="primary">
            {w.submit}
          </button>
        </p>
      </form>
      <p className="back">
        <a href={p.backHref}>{p.t.changeTime}</a>
      </p>
    </>
  );
}

export interface ClaimProps {
  w: WaitlistMessages;
  t: Messages;
  summary: Array<[label: string, value: string]>;
  heldUntil: string;
  action: string;
  lang: string;
  termsError: boolean;
  /** a deposit service: its terms are accepted as on the details step */
  deposit?: { explained: string; error: boolean } | undefined;
  termsUrl: string | null;
  privacyUrl: string | null;
}

/** The claim page: the offered time, and the consent box of the details step before booking it. */
export function ClaimStep(p: ClaimProps) {
  const { w, t } = p;
  return (
    <>
      <h1>{w.claimTitle}</h1>
      <dl className="summary">
        {p.summary.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p>{w.heldUntil(p.heldUntil)}</p>
      <form method="post" action={p.action}>
        <input type="hidden" name="lang" value={p.lang} />
        {p.termsUrl || p.privacyUrl ? (
          <p id="terms-links">
            {p.termsUrl ? <a href={p.termsUrl}>{t.termsLink}</a> : null}
            {p.termsUrl && p.privacyUrl ? ' · ' : null}
            {p.privacyUrl ? <a href={p.privacyUrl}>{t.privacyLink}</a> : null}
          </p>
        ) : null}
        <div className={p.termsError ? 'field check invalid' : 'field check'}>
          {p.termsError ? (
            <p className="error" id="f-terms-error">
              {t.errTermsRequired}
            </p>
          ) : null}
          <input
            id="f-terms"
            type="checkbox"
            name="terms"
            value="yes"
            aria-describedby={
              [p.termsError ? 'f-terms-error' : '', p.termsUrl || p.privacyUrl ? 'terms-links' : ''].filter(Boolean).join(' ') || undefined
            }
            aria-invalid={p.termsError ? true : undefined}
          />
          <label htmlFor="f-terms">{t.acceptTerms}</label>
        </div>
        {p.deposit ? (
          <div className={p.deposit.error ? 'field check invalid' : 'field check'}>
            <p id="f-deposit-explained">{p.deposit.explained}</p>
            {p.deposit.error ? (
              <p className="error" id="f-depositTerms-error">
                {t.errDepositTermsRequired}
              </p>
            ) : null}
            <input
              id="f-depositTerms"
              type="checkbox"
              name="depositTerms"
              value="yes"
              aria-describedby={p.deposit.error ? 'f-depositTerms-error f-deposit-explained' : 'f-deposit-explained'}
              aria-invalid={p.deposit.error ? true : undefined}
            />
            <label htmlFor="f-depositTerms">{t.acceptDepositTerms}</label>
          </div>
        ) : null}
        <p>
          <button type="submit" className="primary">
            {w.claimBook}
          </button>
        </p>
      </form>
    </>
  );
}

/** The withdraw page: a confirm form (a link alone changes nothing, so a mail scanner cannot withdraw). */
export function WithdrawStep(p: { w: WaitlistMessages; text: string; action: string; lang: string }) {
  return (
    <>
      <h1>{p.w.withdrawTitle}</h1>
      <p>{p.text}</p>
      <form method="post" action={p.action}>
        <input type="hidden" name="lang" value={p.lang} />
        <button type="submit">{p.w.withdrawConfirm}</button>
      </form>
    </>
  );
}
