import type { Messages } from '../i18n/index.ts';
import { type ServiceChoice, ServiceChoices } from './choose.tsx';

/** One service of the visit being chosen, with its way out of it. */
export interface VisitPartView {
  name: string;
  /** `30 min · 25,00 €` */
  meta: string;
  /** `Remove {name}`: the same step without it; absent when it is the only one left */
  removeHref?: string | undefined;
}

/** The time step's summary of a visit: its services in order, the total, a way to remove each. */
export function VisitSummary(p: { t: Messages; parts: VisitPartView[]; total: string }) {
  const { t } = p;
  return (
    <section className="visit" aria-labelledby="visit-h">
      <h2 id="visit-h">{t.yourVisit}</h2>
      <ol className="visit-parts">
        {p.parts.map((part) => (
          <li key={part.name}>
            <span className="choice-name">{part.name}</span> <span className="choice-meta">{part.meta}</span>
            {part.removeHref ? (
              <>
                {' '}
                <a href={part.removeHref}>{t.removeService(part.name)}</a>
              </>
            ) : null}
          </li>
        ))}
      </ol>
      <p className="visit-total">
        {t.visitTotal}: {p.total}
      </p>
    </section>
  );
}

/** `Add another service`: the services that may follow the ones chosen, one link each. */
export function AddServiceStep(p: { t: Messages; lang: 'en' | 'hu'; chosen: string; services: ServiceChoice[]; backHref: string }) {
  const { t } = p;
  return (
    <>
      <p className="where">{p.chosen}</p>
      <h1>{t.stepAddService}</h1>
      <p className="intro">{t.addServiceIntro}</p>
      <ServiceChoices t={t} lang={p.lang} services={p.services} none={t.noMoreServices} />
      <p className="back">
        <a href={p.backHref}>{t.stepTime}</a>
      </p>
    </>
  );
}
