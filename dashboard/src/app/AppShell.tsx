import { Navigate, NavLink, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { SECTIONS } from './sections.ts';
import type { Member, Membership } from '../lib/api.ts';
import { errorWords } from '../lib/form-errors.ts';
import { useSession, useSetLanguage, useSignOut } from '../lib/auth.ts';
import { LANGS, useT } from '../lib/i18n/index.ts';
import { Field } from '../components/Field.tsx';
import { useEffect, useId, useState } from 'react';
import { useRequests } from '../features/bookings/requests-query.ts';
import { useAnnouncement } from '../lib/announce.ts';

/** `/dashboard/`: the member's first business. */
export function FirstBusiness() {
  const { data: member } = useSession();
  const t = useT();
  const first = member?.memberships[0];
  if (!first) return <p role="alert">{t.shell.noBusiness}</p>;
  return <Navigate to={`/${first.salonSlug}/calendar`} replace />;
}

/** Header (business, switcher, sign-out), the main navigation and the page of the section. */
export function AppShell() {
  const { slug } = useParams();
  const { data: member } = useSession();
  const t = useT();
  const membership = member?.memberships.find((m) => m.salonSlug === slug);
  if (!member) return null;
  if (!membership) return <Navigate to="/" replace />;
  return (
    <div className="shell">
      <header className="top">
        <div className="business">
          <span className="business-name">{membership.businessName}</span>
          <span className="role">{t.shell.roles[membership.role]}</span>
        </div>
        {member.memberships.length > 1 && <BusinessSwitcher member={member} slug={membership.salonSlug} />}
        <SignOut name={member.name} language={member.language} />
      </header>
      <MainNav slug={membership.salonSlug} role={membership.role} />
      <main className="content">
        <Outlet />
      </main>
      <Announcement />
    </div>
  );
}

/**
 * The sections' links; on a narrow screen they are behind `Menu` (styles.css hides the button on a
 * wide one), which closes again when a page is chosen or on Escape, leaving focus on the button.
 */
function MainNav({ slug, role }: { slug: string; role: Membership['role'] }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page closes the menu
  useEffect(() => setOpen(false), [pathname]);
  return (
    <nav
      className="main-nav"
      aria-label={t.shell.main}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !open) return;
        setOpen(false);
        e.currentTarget.querySelector<HTMLButtonElement>('.menu-button')?.focus();
      }}
    >
      <button type="button" className="menu-button" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
        {t.shell.menu}
      </button>
      <ul id={listId} className={open ? 'open' : undefined}>
        {SECTIONS.filter((s) => !s.roles || s.roles.includes(role)).map((s) =>
          s.path === 'requests' ? (
            <RequestsLink key={s.path} slug={slug} name={t.nav[s.path]} />
          ) : (
            <li key={s.path}>
              <NavLink to={`/${slug}/${s.path}`}>{t.nav[s.path]}</NavLink>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}

/**
 * `Requests` with the number of requests waiting for the salon beside it (the inbox's own query, so
 * it moves as the inbox does). The link keeps its fixed name; the number is its description.
 */
function RequestsLink({ slug, name }: { slug: string; name: string }) {
  const requests = useRequests(slug);
  const t = useT();
  const waiting = requests.data?.filter((b) => b.status === 'requested').length ?? 0;
  const id = useId();
  return (
    <li>
      <NavLink to={`/${slug}/requests`} aria-describedby={waiting > 0 ? id : undefined}>
        {name}
      </NavLink>
      {waiting > 0 && (
        <span id={id} className="count">
          {waiting > 99 ? '99+' : waiting}
          <span className="sr-only"> {t.shell.waiting}</span>
        </span>
      )}
    </li>
  );
}

/** The confirmation after an action, in one polite live region that is always there (lib/announce.ts). */
function Announcement() {
  const said = useAnnouncement();
  return (
    <p role="status" className="announce">
      {said?.text}
    </p>
  );
}

function BusinessSwitcher({ member, slug }: { member: Member; slug: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  const section = location.pathname.split('/')[2] ?? 'calendar';
  const t = useT();
  return (
    <div className="switcher">
      <Field label={t.shell.business} layout="inline">
        <select value={slug} onChange={(e) => navigate(`/${e.target.value}/${section}`)}>
          {member.memberships.map((m) => (
            <option key={m.salonSlug} value={m.salonSlug}>
              {m.businessName}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}

function SignOut({ name, language }: { name: string; language: Member['language'] }) {
  const signOut = useSignOut();
  const setLanguage = useSetLanguage();
  const t = useT();
  const navigate = useNavigate();
  return (
    <div className="account">
      <span className="member-name">{name}</span>
      {/* the member's own choice, stored with their account: every page and session follows it */}
      <Field label={t.shell.language} layout="inline">
        <select
          value={setLanguage.isPending ? setLanguage.variables : language}
          disabled={setLanguage.isPending}
          onChange={(e) => setLanguage.mutate(e.target.value as Member['language'])}
        >
          {LANGS.map((l) => (
            <option key={l} value={l} lang={l}>
              {t.languageNames[l]}
            </option>
          ))}
        </select>
      </Field>
      <button
        type="button"
        disabled={signOut.isPending}
        onClick={() => signOut.mutate(undefined, { onSuccess: () => navigate('/sign-in', { replace: true }) })}
      >
        {t.shell.signOut}
      </button>
      {signOut.isError && <span role="alert">{errorWords(signOut.error)}</span>}
      {setLanguage.isError && <span role="alert">{errorWords(setLanguage.error)}</span>}
    </div>
  );
}
