import type { PriceType } from '../../domain/catalog.ts';
import { formatMoney } from '../format.ts';
import type { Messages } from '../i18n/index.ts';

/** A location of the first page (a business with more than one). */
export interface LocationChoice {
  name: string;
  address: string;
  href: string;
}

export function LocationsStep(p: { t: Messages; introText: string | null; locations: LocationChoice[] }) {
  const { t } = p;
  return (
    <>
      <h1>{t.stepLocation}</h1>
      {p.introText ? <p className="intro">{p.introText}</p> : null}
      {p.locations.length === 0 ? (
        <p>{t.noLocations}</p>
      ) : (
        <ul className="choices">
          {p.locations.map((l) => (
            <li key={l.href}>
              <a href={l.href}>
                <span className="choice-name">{l.name}</span> <span className="choice-meta">{l.address}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export interface ServiceChoice {
  name: string;
  description: string | null;
  durationMinutes: number;
  priceType: PriceType;
  priceMinor: number | null;
  currency: string;
  href: string;
}

/** Price as the service's type says: fixed, `from`, or `on request`. */
export function priceText(t: Messages, lang: 'en' | 'hu', s: Pick<ServiceChoice, 'priceType' | 'priceMinor' | 'currency'>): string {
  if (s.priceType === 'negotiable' || s.priceMinor === null) return t.priceOnRequest;
  const money = formatMoney(lang, s.priceMinor, s.currency);
  return s.priceType === 'from' ? t.priceFrom(money) : money;
}

/**
 * One link per service, its accessible name starting with the service's name, then its length and
 * price; the description below. Step 1 and `Add another service` list services alike.
 */
export function ServiceChoices(p: { t: Messages; lang: 'en' | 'hu'; services: ServiceChoice[]; none: string }) {
  const { t } = p;
  if (p.services.length === 0) return <p>{p.none}</p>;
  return (
    <ul className="choices">
      {p.services.map((s) => (
        <li key={s.href}>
          <a href={s.href}>
            <span className="choice-name">{s.name}</span>{' '}
            <span className="choice-meta">
              {t.minutes(s.durationMinutes)} · {priceText(t, p.lang, s)}
            </span>
          </a>
          {s.description ? <p className="choice-desc">{s.description}</p> : null}
        </li>
      ))}
    </ul>
  );
}

/** Step 1: one link per service, its accessible name starting with the service's name. */
export function ServicesStep(p: {
  t: Messages;
  lang: 'en' | 'hu';
  locationName: string;
  introText: string | null;
  services: ServiceChoice[];
  backHref?: string | undefined;
}) {
  const { t } = p;
  return (
    <>
      <p className="where">{p.locationName}</p>
      <h1>{t.stepService}</h1>
      {p.introText ? <p className="intro">{p.introText}</p> : null}
      <ServiceChoices t={t} lang={p.lang} services={p.services} none={t.noServices} />
      {p.backHref ? (
        <p className="back">
          <a href={p.backHref}>{t.stepLocation}</a>
        </p>
      ) : null}
    </>
  );
}

/** Step 2: `Any staff` first, then one link per staff member, named by their name alone. */
export function StaffStep(p: {
  t: Messages;
  serviceName: string;
  anyHref: string;
  staff: Array<{ name: string; href: string }>;
  backHref: string;
}) {
  const { t } = p;
  return (
    <>
      <p className="where">{p.serviceName}</p>
      <h1>{t.stepStaff}</h1>
      {p.staff.length === 0 ? (
        <p>{t.noStaff}</p>
      ) : (
        <ul className="choices">
          <li>
            <a href={p.anyHref} aria-describedby="any-hint">
              {t.anyStaff}
            </a>
            <p className="choice-desc" id="any-hint">
              {t.anyStaffHint}
            </p>
          </li>
          {p.staff.map((s) => (
            <li key={s.href}>
              <a href={s.href}>{s.name}</a>
            </li>
          ))}
        </ul>
      )}
      <p className="back">
        <a href={p.backHref}>{t.changeService}</a>
      </p>
    </>
  );
}
