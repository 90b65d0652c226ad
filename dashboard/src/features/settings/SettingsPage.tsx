import { useEffect, useId } from 'react';
import { useParams } from 'react-router';
import { useCanEdit } from '../catalogue/location-param.tsx';
import { useBusiness } from '../catalogue/queries.ts';
import { useT } from '../../lib/i18n/index.ts';
import { useGuestSettings } from './queries.ts';
import { SettingsForm } from './SettingsForm.tsx';
import './settings.css';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { settingsWords } from './words.ts';

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
  const t = useT();
  const w = usePageWords(settingsWords);
  const pagePath = `/book/${encodeURIComponent(slug)}`;

  useEffect(() => {
    document.title = t.common.docTitle(w.title);
  }, [t, w]);

  return (
    <section className="page settings" aria-labelledby="page-title">
      <h1 id="page-title">{w.title}</h1>
      <p>{w.intro}</p>
      <p className="booking-link">
        <a href={pagePath} target="_blank" rel="noopener" aria-describedby={linkHint}>
          {w.open}
        </a>{' '}
        <span id={linkHint} className="hint">
          {w.linkHint}
          <code>{`${window.location.origin}${pagePath}`}</code>
        </span>
      </p>
      {!canEdit && <p className="notice">{w.readOnlyNotice}</p>}
      {settings.isPending && <p className="loading">{w.loading}</p>}
      {settings.isError && <p role="alert">{settings.error.message}</p>}
      {settings.data && (
        <SettingsForm slug={slug} settings={settings.data} features={business.data?.subscription.features} canEdit={canEdit} />
      )}
    </section>
  );
}
