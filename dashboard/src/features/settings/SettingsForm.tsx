import { useState } from 'react';
import { RecordForm } from '../../components/RecordForm.tsx';
import { formErrors } from '../../lib/form-errors.ts';
import { changes, type Draft, fromDraft, KNOWN_FIELDS, plainWords, toDraft } from './draft.ts';
import { type GuestSettings, useSaveGuestSettings } from './queries.ts';
import { BookingPageSection, type Features, GuestSection, MessagesSection, WaitlistSection } from './sections.tsx';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { settingsWords } from './words.ts';

/**
 * The guest settings as one form. Owners and managers save what they changed (a PATCH of the
 * changed fields only); a refusal shows beside the field it names, in the page's words. The
 * front desk sees the same fields, disabled, without `Save settings`.
 */
export function SettingsForm(props: { slug: string; settings: GuestSettings; features: Features | undefined; canEdit: boolean }) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(props.settings));
  const [status, setStatus] = useState('');
  const save = useSaveGuestSettings(props.slug);
  const w = usePageWords(settingsWords);
  const set = (part: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...part }));
    setStatus('');
  };
  const errors = formErrors(save.error, KNOWN_FIELDS);
  const fields = plainWords(errors);

  const sections = (
    <>
      <BookingPageSection draft={draft} set={set} errors={fields} features={props.features} />
      <GuestSection draft={draft} set={set} errors={fields} />
      <MessagesSection draft={draft} set={set} errors={fields} features={props.features} />
      <WaitlistSection draft={draft} set={set} errors={fields} />
    </>
  );

  if (!props.canEdit) {
    return (
      <div className="form settings-form">
        <fieldset disabled className="plain">
          <legend className="sr-only">{w.readOnly}</legend>
          {sections}
        </fieldset>
      </div>
    );
  }

  const submit = () => {
    const patch = changes(props.settings, fromDraft(draft));
    if (!patch) {
      save.reset();
      setStatus(w.nothing);
      return;
    }
    setStatus('');
    save.mutate(patch, {
      onSuccess: (saved) => {
        // The answer is what is stored (origins in their stored spelling): the form shows that.
        setDraft(toDraft(saved));
        setStatus(w.saved);
      },
    });
  };

  return (
    <RecordForm
      className="form settings-form"
      aria-label={w.form}
      errors={errors}
      error={save.error}
      pending={save.isPending}
      submitLabel={w.save}
      onSubmit={submit}
      onCancel={() => {
        save.reset();
        setDraft(toDraft(props.settings));
        setStatus(w.discarded);
      }}
      cancelLabel={w.discard}
      footer={
        <p role="status" className="save-status">
          {save.isPending ? w.saving : status}
        </p>
      }
    >
      {sections}
    </RecordForm>
  );
}
