import { useId } from 'react';

/**
 * A horizontal bar per row, drawn with CSS (no chart library), and the same figures as a table
 * right under it: the chart is a picture for the eye (hidden from screen readers), the table is
 * what is read and what a narrow screen shows in full.
 */
export function BarChart(props: {
  title: string;
  valueLabel: string;
  rows: Array<{ key: string; name: string; value: number; shown: string }>;
  /** the value of a full bar; the largest row's when left out */
  max?: number;
}) {
  const id = useId();
  const max = props.max ?? Math.max(0, ...props.rows.map((r) => r.value));
  return (
    <figure className="bar-chart" aria-labelledby={id}>
      <figcaption id={id}>
        <h2>{props.title}</h2>
      </figcaption>
      <div className="bars" aria-hidden="true">
        {props.rows.map((r) => (
          <div key={r.key} className="bar-row">
            <span className="bar-name">{r.name}</span>
            <span className="bar-track">
              <span className="bar" style={{ width: `${max > 0 ? Math.min(100, (r.value / max) * 100) : 0}%` }} />
            </span>
            <span className="bar-value">{r.shown}</span>
          </div>
        ))}
      </div>
      <table className="list">
        <thead>
          <tr>
            <th scope="col">{props.title}</th>
            <th scope="col">{props.valueLabel}</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.key}>
              <td data-label={props.title}>{r.name}</td>
              <td data-label={props.valueLabel}>{r.shown}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
