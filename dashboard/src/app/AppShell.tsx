import { Navigate, NavLink, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { SECTIONS } from './sections.ts';
import type { Member } from '../lib/api.ts';
import { useSession, useSignOut } from '../lib/auth.ts';
import { Field } from '../components/Field.tsx';
import { useEffect, useId, useState } from 'react';
import { useRequests } from '../features/bookings/requests-query.ts';
import { useAnnouncement } from '../lib/announce.ts';

/** `/dashboard/`: the member's first business. */
export function FirstBusiness() {
  const { data: member } = useSession();
  const first = member?.memberships[0];
  if (!first) return <p role="alert">This account has no business any more.</p>;
  return <Navigate to={`/${first.salonSlug}/calendar`} replace />;
}

/** Header (business, switcher, sign-out), the main navigation and the page of the section. */
export function AppShell() {
  const { slug } = useParams();
  const { data: member } = useSession();
  const membership = member?.memberships.find((m) => m.salonSlug === slug);
  if (!member) return null;
  if (!membership) return <Navigate to="/" replace />;
  return (
    <div className="shell">
      <header className="top">
        <div className="business">
          <span className="business-name">{membership.businessName}</span>
          <span className="role">{ROLE_NAMES[membership.role]}</span>
        </div>
        {member.memberships.length > 1 && <BusinessSwitcher member={member} slug={membership.salonSlug} />}
        <SignOut name={member.name} />
      </header>
      <MainNav slug={membership.salonSlug} />
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
function MainNav({ slug }: { slug: string }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page closes the menu
  useEffect(() => setOpen(false), [pathname]);
  return (
    <nav
      className="main-nav"
      aria-label="Main"
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !open) return;
        setOpen(false);
        e.currentTarget.querySelector<HTMLButtonElement>('.menu-button')?.focus();
      }}
    >
      <button type="button" className="menu-button" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
        Menu
      </button>
      <ul id={listId} className={open ? 'open' : undefined}>
        {SECTIONS.map((s) =>
          s.path === 'requests' ? (
            <RequestsLink key={s.path} slug={slug} name={s.name} />
          ) : (
            <li key={s.path}>
              <NavLink to={`/${slug}/${s.path}`}>{s.name}</NavLink>
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
          <span className="sr-only"> waiting</span>
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

const ROLE_NAMES = { owner: 'Owner', manager: 'Manager', frontDesk: 'Front desk' } as const;

function BusinessSwitcher({ member, slug }: { member: Member; slug: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  const section = location.pathname.split('/')[2] ?? 'calendar';
  return (
    <div className="switcher">
      <Field label="Business" layout="inline">
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

function SignOut({ name }: { name: string }) {
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <div className="account">
      <span className="member-name">{name}</span>
      <button
        type="button"
        disabled={signOut.isPending}
        onClick={() => signOut.mutate(undefined, { onSuccess: () => navigate('/sign-in', { replace: true }) })}
      >
        Sign out
      </button>
      {signOut.isError && <span role="alert">{signOut.error.message}</span>}
    </div>
  );
}
