import { renderToStaticMarkup } from 'react-dom/server';
import type { MailContent } from './content.ts';

/**
 * The HTML part: one column, inline styles only (mail clients drop style sheets), and every word
 * the text part has. React escapes every value, a guest's name included.
 */
export function MailHtml({ c }: { c: MailContent }) {
  return (
    <html lang={c.lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{c.subject}</title>
      </head>
      <body style={{ margin: 0, padding: '16px', fontFamily: 'Arial, Helvetica, sans-serif', color: '#1a1a1a', background: '#ffffff' }}>
        <div style={{ maxWidth: '560px', margin: '0 auto' }}>
          <h1 style={{ fontSize: '20px', margin: '0 0 12px' }}>{c.title}</h1>
          <p style={{ margin: '0 0 16px', lineHeight: 1.5 }}>{c.intro}</p>
          <table role="presentation" style={{ borderCollapse: 'collapse', marginBottom: '16px' }}>
            <tbody>
              {c.details.map((d) => (
                <tr key={d.label}>
                  <th scope="row" style={{ textAlign: 'left', padding: '4px 12px 4px 0', verticalAlign: 'top', fontWeight: 'bold' }}>
                    {d.label}
                  </th>
                  <td style={{ padding: '4px 0' }}>{d.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {c.note ? <p style={{ margin: '0 0 16px' }}>{c.note}</p> : null}
          {c.links.map((l) => (
            <p key={l.url} style={{ margin: '0 0 12px' }}>
              <a href={l.url} style={{ color: '#0b57d0', fontWeight: 'bold' }}>
                {l.label}
              </a>
            </p>
          ))}
          <p style={{ marginTop: '24px', fontSize: '12px', color: '#555555' }}>{c.footer}</p>
        </div>
      </body>
    </html>
  );
}

export function mailHtml(c: MailContent): string {
  return `<!doctype html>${renderToStaticMarkup(<MailHtml c={c} />)}`;
}
