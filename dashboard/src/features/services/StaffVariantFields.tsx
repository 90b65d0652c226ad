import { Field, FieldGroup } from '../../components/Field.tsx';
import { text } from '../../components/RecordForm.tsx';
import type { Service, Staff } from '../catalogue/queries.ts';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { servicesWords } from './words.ts';

type Variant = Service['staffVariants'][number];
type Segment = Service['segments'][number];

/** The error names a form passes to formErrors: one per variant sent (the API names them by index). */
export const VARIANT_ERROR_FIELDS = Array.from({ length: 50 }, (_, i) => `staffVariants.${i}`);

/**
 * The staff a variant can be set for: the location's active staff, and anyone inactive who still
 * has one (kept unless cleared), in the staff list's order.
 */
export function variantStaff(staff: readonly Staff[], service: Service | undefined): Staff[] {
  const has = new Set((service?.staffVariants ?? []).map((v) => v.staffId));
  return staff.filter((s) => s.active || has.has(s.id));
}

/**
 * Stylist variants as a salon writes them: per staff member a duration and a price, empty for the
 * service's own. Processing follows the service's (same work before it and same length); a
 * variant given other parts through the API keeps them while its duration stays.
 */
export function StaffVariantFields(props: {
  staff: readonly Staff[];
  service: Service | undefined;
  priceType: Service['priceType'];
  currency: string;
  /** the API's message per staff member, by id */
  errors: Record<string, string | undefined>;
}) {
  const { staff, service, priceType, currency, errors } = props;
  const w = usePageWords(servicesWords);
  const byStaff = new Map((service?.staffVariants ?? []).map((v) => [v.staffId, v]));
  return (
    <FieldGroup legend={w.variants}>
      <p className="hint">{w.variantsHint}</p>
      {staff.length === 0 && <p>{w.noStaff}</p>}
      {staff.map((s) => {
        const v = byStaff.get(s.id);
        return (
          <FieldGroup key={s.id} legend={s.active ? s.name : `${s.name}${w.inactiveSuffix}`} error={errors[s.id]}>
            <Field label={w.variantDuration(s.name)}>
              <input name={`variantDuration-${s.id}`} type="number" min={1} step={1} defaultValue={v?.durationMinutes ?? ''} />
            </Field>
            {priceType !== 'negotiable' && (
              <Field label={w.variantPrice(s.name, currency)}>
                <input name={`variantPrice-${s.id}`} type="number" min={0} step="any" defaultValue={v?.price?.amount ?? ''} />
              </Field>
            )}
          </FieldGroup>
        );
      })}
    </FieldGroup>
  );
}

/**
 * The variants to send, in the order of `staff`: a staff member with neither field set has none.
 * A duration other than the service's on a service with processing gets the service's processing
 * (same work before it, same length), the rest work; the API names any problem beside the field.
 */
export function variantsFrom(
  d: FormData,
  staff: readonly Staff[],
  service: Service | undefined,
  form: { durationMinutes: number; priceType: Service['priceType']; currency: string; segments: Segment[] | null | undefined },
): Variant[] {
  const old = new Map((service?.staffVariants ?? []).map((v) => [v.staffId, v]));
  const processing = serviceProcessing(form.segments === undefined ? service?.segments : (form.segments ?? undefined));
  const out: Variant[] = [];
  for (const s of staff) {
    const duration = text(d, `variantDuration-${s.id}`);
    const price = form.priceType === 'negotiable' ? '' : text(d, `variantPrice-${s.id}`);
    if (duration === '' && price === '') continue;
    const v: Variant = { staffId: s.id };
    if (duration !== '') v.durationMinutes = Number(duration);
    if (price !== '') v.price = { amount: Number(price), currency: form.currency };
    const before = old.get(s.id);
    if (before?.segments && before.durationMinutes === v.durationMinutes) v.segments = before.segments;
    else if (processing && v.durationMinutes !== undefined && v.durationMinutes !== form.durationMinutes) {
      v.segments = [
        { kind: 'work', minutes: processing.after },
        { kind: 'processing', minutes: processing.minutes },
        { kind: 'work', minutes: v.durationMinutes - processing.after - processing.minutes },
      ];
    }
    out.push(v);
  }
  return out;
}

/** A service's one processing part (work before it, its length); undefined without, or with more parts than the form sets. */
function serviceProcessing(segments: readonly Segment[] | undefined): { after: number; minutes: number } | undefined {
  if (segments?.length !== 3 || segments[1]!.kind !== 'processing') return undefined;
  return { after: segments[0]!.minutes, minutes: segments[1]!.minutes };
}
