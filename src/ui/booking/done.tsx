import type { Messages } from '../i18n/index.ts';

export interface DoneProps {
  t: Messages;
  confirmed: boolean;
  summary: Array<[label: string, value: string]>;
  icsHref: string;
  manageHref: string;
  /** the deposit's payment page, for a deposit booking */
  payHref?: string | undefined;
  againHref: string;
}

/** Step 6: what was booked, and where to go from here. */
export function DoneStep(p: DoneProps) {
  const { t } = p;
  return (
    <>
      <h1>{p.confirmed ? t.bookingConfirmed : t.bookingReceived}</h1>
      {p.confirmed ? null : <p>{t.bookingReceivedHint}</p>}
      <dl className="summary">
        {p.summary.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {p.payHref ? (
        <div className="pay">
          <p>{t.depositDue}</p>
          <p>
            {/* _top: the payment and manage pages refuse to be framed, so an embedded page opens them whole */}
            <a className="button primary" href={p.payHref} target="_top">
              {t.payDeposit}
            </a>
          </p>
        </div>
      ) : null}
      <ul className="actions">
        <li>
          <a href={p.icsHref}>{t.addToCalendar}</a>
        </li>
        <li>
          <a href={p.manageHref} target="_top">
            {t.manageBooking}
          </a>
        </li>
      </ul>
      <p className="back">
        <a href={p.againHref}>{t.bookAnother}</a>
      </p>
    </>
  );
}

/** A page that only says something: not found, too many attempts, refused, an error. */
export function MessageView(p: { title: string; text: string; link?: { href: string; text: string } | undefined }) {
  return (
    <>
      <h1>{p.title}</h1>
      <p>{p.text}</p>
      {p.link ? (
        <p>
          <a href={p.link.href}>{p.link.text}</a>
        </p>
      ) : null}
    </>
  );
}
