import { Field } from '../../components/Field.tsx';
import { int, text } from '../../components/RecordForm.tsx';
import type { Service } from '../catalogue/queries.ts';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { servicesWords } from './words.ts';

type Segment = Service['segments'][number];

/** The first processing part of a service: minutes of work before it and its length (0: none). */
function firstProcessing(service: Service | undefined): { after: number; minutes: number } {
  const segments = service?.segments ?? [];
  let at = 0;
  for (const s of segments) {
    if (s.kind === 'processing') return { after: at, minutes: s.minutes };
    at += s.minutes;
  }
  return { after: 0, minutes: 0 };
}

/**
 * Processing time as a salon writes it: "after 15 minutes of work, 30 minutes while the colour
 * develops". A service given more parts through the API keeps them until these fields change.
 */
export function ProcessingFields(props: { service: Service | undefined; error: string | undefined }) {
  const { service, error } = props;
  const w = usePageWords(servicesWords);
  const first = firstProcessing(service);
  const parts = service?.segments.length ?? 1;
  return (
    <fieldset>
      <legend>{w.processingTime}</legend>
      <Field label={w.processingMinutes} error={error} hint={parts > 3 ? w.processingApiParts(parts) : w.processingHint}>
        <input name="processingMinutes" type="number" min={0} step={1} defaultValue={first.minutes} />
      </Field>
      <Field label={w.processingAfter}>
        <input name="processingAfter" type="number" min={0} step={1} defaultValue={first.after} />
      </Field>
    </fieldset>
  );
}

/**
 * The segments to send: undefined when the fields are as they were (nothing to change), null for
 * none, else work, processing, work adding up to the duration (the API names any problem).
 */
export function segmentsFrom(d: FormData, durationMinutes: number, service: Service | undefined): Segment[] | null | undefined {
  const minutes = text(d, 'processingMinutes') === '' ? 0 : int(d, 'processingMinutes');
  const after = text(d, 'processingAfter') === '' ? 0 : int(d, 'processingAfter');
  const first = firstProcessing(service);
  const unchanged = minutes === first.minutes && after === first.after && durationMinutes === service?.durationMinutes;
  if (service && unchanged) return undefined;
  if (minutes <= 0) return service && first.minutes > 0 ? null : undefined;
  return [
    { kind: 'work', minutes: after },
    { kind: 'processing', minutes },
    { kind: 'work', minutes: durationMinutes - after - minutes },
  ];
}
