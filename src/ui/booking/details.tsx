import type { DetailsErrors, DetailsField, DetailsForm, DetailsProblem } from '../../domain/booking-page/details.ts';
import type { Messages } from '../i18n/index.ts';
import { Notice } from './layout.tsx';

export interface DetailsProps {
  t: Messages;
  summary: Array<[label: string, value: string]>;
  /** `We hold this time for you until 10:40.`; none for a group seat (not held) */
  heldUntil?: string | undefined;
  /** the hold's end as an instant, for the optional countdown script */
  heldUntilIso?: string | undefined;
  action: string;
  hidden: Record<string, string>;
  values: DetailsForm;
  errors: DetailsErrors;
  /** the other errors of the form as a whole (a price or deposit terms that just changed) */
  formError?: string | undefined;
  onSite: boolean;
  /** the deposit's amount, formatted; set for a deposit service */
  deposit?: string | undefined;
  termsUrl: string | null;
  privacyUrl: string | null;
  changeTimeHref: string;
}

const FIELD_ORDER: DetailsField[] = ['name', 'phone', 'email', 'address', 'note', 'terms', 'depositTerms'];

/** The words of one field's problem. */
export function problemText(t: Messages, field: DetailsField, problem: DetailsProblem): string {
  switch (field) {
    case 'name':
      return problem === 'tooLong' ? t.errNameTooLong : t.errNameRequired;
    case 'phone':
      return problem === 'required' ? t.errPhoneRequired : t.errPhoneInvalid;
    case 'email':
      return problem === 'required' ? t.errEmailRequired : t.errEmailInvalid;
    case 'note':
      return t.errNoteTooLong;
    case 'address':
      return t.errAddressRequired;
    case 'terms':
      return t.errTermsRequired;
    case 'depositTerms':
      return t.errDepositTermsRequired;
  }
}

function describedBy(...ids: Array<string | false | undefined>): string | undefined {
  const list = ids.filter((id): id is string => typeof id === 'string');
  return list.length > 0 ? list.join(' ') : undefined;
}

function TextField(p: {
  t: Messages;
  id: DetailsField;
  label: string;
  value: string;
  error: DetailsProblem | undefined;
  hint?: string | undefined;
  type?: string;
  autoComplete: string;
  required: boolean;
  multiline?: boolean;
  inputMode?: 'tel' | 'email';
  maxLength: number;
}) {
  const inputId = `f-${p.id}`;
  const errorId = p.error ? `${inputId}-error` : undefined;
  const hintId = p.hint ? `${inputId}-hint` : undefined;
  const common = {
    id: inputId,
    name: p.id,
    autoComplete: p.autoComplete,
    'aria-describedby': describedBy(errorId, hintId),
    'aria-invalid': p.error ? (true as const) : undefined,
    'aria-required': p.required ? (true as const) : undefined,
    maxLength: p.maxLength,
  };
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
          {problemText(p.t, p.id, p.error)}
        </p>
      ) : null}
      {p.multiline ? (
        <textarea {...common} rows={3} defaultValue={p.value} />
      ) : (
        <input {...common} type={p.type ?? 'text'} inputMode={p.inputMode} defaultValue={p.value} />
      )}
    </div>
  );
}

function CheckField(p: {
  t: Messages;
  id: 'terms' | 'depositTerms';
  label: string;
  checked: boolean;
  error: DetailsProblem | undefined;
  describe?: string | undefined;
}) {
  const inputId = `f-${p.id}`;
  const errorId = p.error ? `${inputId}-error` : undefined;
  return (
    <div className={p.error ? 'field check invalid' : 'field check'}>
      {p.error ? (
        <p className="error" id={errorId}>
          {problemText(p.t, p.id, p.error)}
        </p>
      ) : null}
      <input
        id={inputId}
        type="checkbox"
        name={p.id}
        value="yes"
        defaultChecked={p.checked}
        aria-describedby={describedBy(errorId, p.describe)}
        aria-invalid={p.error ? true : undefined}
      />
      <label htmlFor={inputId}>{p.label}</label>
    </div>
  );
}

/** Step 5: the guest's details, each message beside its field, values kept after an error. */
export function DetailsStep(p: DetailsProps) {
  const { t, errors, values } = p;
  const problems = FIELD_ORDER.flatMap((f) => (errors[f] ? [[f, errors[f]] as const] : []));
  return (
    <>
      <h1>{t.stepDetails}</h1>
      <dl className="summary">
        {p.summary.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {p.heldUntil ? (
        <div className="held" role="status">
          <p>
            <strong>{p.heldUntil}</strong>
          </p>
          <p className="hint" data-held-until={p.heldUntilIso}>
            {t.heldUntilHint}
          </p>
        </div>
      ) : null}
      {problems.length > 0 || p.formError ? (
        <Notice title={t.errorsHeading}>
          <ul>
            {p.formError ? <li>{p.formError}</li> : null}
            {problems.map(([f, problem]) => (
              <li key={f}>
                <a href={`#f-${f}`}>{problemText(t, f, problem)}</a>
              </li>
            ))}
          </ul>
        </Notice>
      ) : null}
      <form method="post" action={p.action} className="details" noValidate>
        {Object.entries(p.hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <TextField t={t} id="name" label={t.name} value={values.name} error={errors.name} autoComplete="name" required maxLength={200} />
        <TextField
          t={t}
          id="phone"
          label={t.phone}
          value={values.phone}
          error={errors.phone}
          hint={t.phoneHint}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          required
          maxLength={40}
        />
        <TextField
          t={t}
          id="email"
          label={t.email}
          value={values.email}
          error={errors.email}
          hint={t.emailHint}
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          maxLength={254}
        />
        {p.onSite ? (
          <TextField
            t={t}
            id="address"
            label={t.address}
            value={values.address}
            error={errors.address}
            autoComplete="street-address"
            required
            maxLength={300}
          />
        ) : null}
        <TextField
          t={t}
          id="note"
          label={t.note}
          value={values.note}
          error={errors.note}
          hint={t.optional}
          autoComplete="off"
          required={false}
          multiline
          maxLength={1000}
        />
        <div className="hp">
          <label htmlFor="f-website">{t.honeypotLabel}</label>
          <input id="f-website" type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <CheckField
          t={t}
          id="terms"
          label={t.acceptTerms}
          checked={values.terms}
          error={errors.terms}
          describe={p.termsUrl || p.privacyUrl ? 'terms-links' : undefined}
        />
        {p.termsUrl || p.privacyUrl ? (
          <p className="terms-links" id="terms-links">
            {p.termsUrl ? (
              <a href={p.termsUrl} target="_blank" rel="noopener noreferrer">
                {t.termsLink}
              </a>
            ) : null}
            {p.termsUrl && p.privacyUrl ? ' · ' : null}
            {p.privacyUrl ? (
              <a href={p.privacyUrl} target="_blank" rel="noopener noreferrer">
                {t.privacyLink}
              </a>
            ) : null}
          </p>
        ) : null}
        {p.deposit ? (
          <>
            <p className="deposit" id="deposit-amount">
              {t.depositExplained(p.deposit)}
            </p>
            <CheckField
              t={t}
              id="depositTerms"
              label={t.acceptDepositTerms}
              checked={values.depositTerms}
              error={errors.depositTerms}
              describe="deposit-amount"
            />
          </>
        ) : null}
        <button type="submit" className="primary">
          {t.book}
        </button>
      </form>
      <p className="back">
        <a href={p.changeTimeHref}>{t.changeTime}</a>
      </p>
    </>
  );
}
