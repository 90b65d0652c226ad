import type { Messages } from '../i18n/index.ts';
import { Notice } from './layout.tsx';

type Summary = Array<[label: string, value: string]>;

/** A POST button: the manage page needs no script, every change is a form. */
function PostButton(p: { action: string; label: string; lang: string; primary?: boolean; hidden?: Record<string, string> }) {
  return (
    <form method="post" action={p.action}>
      <input type="hidden" name="lang" value={p.lang} />
      {Object.entries(p.hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={p.primary ? 'primary' : undefined}>
        {p.label}
      </button>
    </form>
  );
}

function SummaryList(p: { summary: Summary }) {
  return (
    <dl className="summary">
      {p.summary.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export interface ManageProps {
  t: Messages;
  lang: string;
  summary: Summary;
  /** what was just done (after a change's redirect) */
  done?: string | undefined;
  /** what went wrong with the last action, in the guest's words */
  error?: string | undefined;
  /** the proposed time, while the salon proposes one */
  proposed?: string | undefined;
  /** each offered only when allowed: where its form goes */
  cancelHref?: string | undefined;
  rescheduleHref?: string | undefined;
  acceptAction?: string | undefined;
  declineAction?: string | undefined;
  /** said instead of `Cancel booking` when that is no longer offered */
  cancelClosed?: string[] | undefined;
  /** a visit: what its cancel and its move do to every part */
  visitNotes?: string[] | undefined;
  contact: string;
  icsHref: string;
}

/** The manage page (guest-side.md "Self-service"): the booking, and each action the guest may take now. */
export function ManageView(p: ManageProps) {
  const { t } = p;
  const canChange = p.cancelHref || p.rescheduleHref;
  return (
    <>
      <h1>{t.manageTitle}</h1>
      {p.done ? <Notice title={p.done} kind="info" /> : null}
      <SummaryList summary={p.summary} />
      {p.error ? <Notice title={p.error} /> : null}
      {p.proposed !== undefined ? (
        <section className="proposal" aria-labelledby="proposal-title">
          <h2 id="proposal-title">{t.proposedTime}</h2>
          <p>{p.proposed}</p>
          <p>{t.proposalHint}</p>
          <ul className="actions">
            {p.acceptAction ? (
              <li>
                <PostButton action={p.acceptAction} label={t.acceptNewTime} lang={p.lang} primary />
              </li>
            ) : null}
            {p.declineAction ? (
              <li>
                <PostButton action={p.declineAction} label={t.declineNewTime} lang={p.lang} />
              </li>
            ) : null}
          </ul>
        </section>
      ) : null}
      {p.visitNotes?.map((note) => (
        <p key={note} className="visit-note">
          {note}
        </p>
      ))}
      {canChange ? (
        <ul className="actions">
          {p.rescheduleHref ? (
            <li>
              <a className="button" href={p.rescheduleHref}>
                {t.reschedule}
              </a>
            </li>
          ) : null}
          {p.cancelHref ? (
            <li>
              {/* a GET form: the button opens the confirm step, which posts */}
              <form method="get" action={p.cancelHref}>
                <input type="hidden" name="lang" value={p.lang} />
                <button type="submit">{t.cancelBooking}</button>
              </form>
            </li>
          ) : null}
        </ul>
      ) : null}
      {p.cancelClosed ? (
        <div className="cancel-closed">
          {p.cancelClosed.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      ) : (
        <p>{p.contact}</p>
      )}
      <ul className="actions">
        <li>
          <a href={p.icsHref}>{t.addToCalendar}</a>
        </li>
      </ul>
    </>
  );
}

/** The cancel's confirm step: the one button that cancels. */
export function CancelConfirm(p: { t: Messages; lang: string; summary: Summary; action: string; backHref: string }) {
  const { t } = p;
  return (
    <>
      <h1>{t.cancelConfirmTitle}</h1>
      <SummaryList summary={p.summary} />
      <p>{t.cancelConfirmText}</p>
      <ul className="actions">
        <li>
          <PostButton action={p.action} label={t.cancelBooking} lang={p.lang} primary />
        </li>
        <li>
          <a href={p.backHref}>{t.keepBooking}</a>
        </li>
      </ul>
    </>
  );
}

/** The reschedule's last step: the held time, and `Confirm new time`. */
export function RescheduleConfirm(p: {
  t: Messages;
  lang: string;
  current: string;
  next: string;
  heldUntil: string;
  action: string;
  choice: string;
  againHref: string;
  backHref: string;
  error?: string | undefined;
}) {
  const { t } = p;
  return (
    <>
      <h1>{t.newTimeTitle}</h1>
      {p.error ? <Notice title={p.error} /> : null}
      <dl className="summary">
        <div>
          <dt>{t.currentTime}</dt>
          <dd>{p.current}</dd>
        </div>
        <div>
          <dt>{t.newTime}</dt>
          <dd>{p.next}</dd>
        </div>
      </dl>
      <p>{t.heldUntil(p.heldUntil)}</p>
      <ul className="actions">
        <li>
          <PostButton action={p.action} label={t.confirmNewTime} lang={p.lang} primary hidden={{ c: p.choice }} />
        </li>
        <li>
          <a href={p.againHref}>{t.chooseAnotherTime}</a>
        </li>
      </ul>
      <p className="back">
        <a href={p.backHref}>{t.backToBooking}</a>
      </p>
    </>
  );
}
