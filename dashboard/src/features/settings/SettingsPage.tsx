import { useEffect, useId } from 'react';
import { useParams } from 'react-router';
import { useCanEdit } from '../catalogue/location-param.tsx';
import { useBusiness } from '../catalogue/queries.ts';
import { useGuestSettings } from './queries.ts';
import { SettingsForm } from './SettingsForm.tsx';
import './settings.css';

/**
 * Settings (guest-side.md "Guest settings of a business"): the business's guest settings, edited by
 * owners and managers, read by the front desk; and `Open booking page`, the business's page.
 */
export function SettingsPage() {
  const { slug = '' } = useParams();
  const canEdit = useCanEdit(slug);
  const settings = useGuestSettings(slug);
  const business = useBusiness(slug);
  const linkHint = useId();
  const pagePath = `/book/${encodeURIComponent(slug)}`;

  useEffect(() => {
    document.title = 'Settings · Bookings dashboard';
  }, []);

  return (
    <section className="page settings" aria-labelledby="page-title">
      <h1 id="page-title">Settings</h1>
      <p>How your booking page, held times, guest self-service, messages and waitlist behave.</p>
      <p className="booking-link">
        <a href={pagePath} target="_blank" rel="noopener" aria-describedby={linkHint}>
          Open booking page
        </a>{' '}
        <span id={linkHint} className="hint">
          (opens in a new tab). Its address, to link to from your website: <code>{`${window.location.origin}${pagePath}`}</code>
        </span>
      </p>
      {!canEdit && <p className="notice">Only owners and managers can change these settings; you can read them here.</p>}
      {settings.isPending && <p className="loading">Loading the settings…</p>}
      {settings.isError && <p role="alert">{settings.error.message}</p>}
      {settings.data && (
        <SettingsForm slug={slug} settings={settings.data} features={business.data?.subscription.features} canEdit={canEdit} />
      )}
    </section>
  );
}
