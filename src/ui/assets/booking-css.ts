/**
 * The guest pages' one stylesheet, served from /book-assets/ under its content hash. Colours meet
 * WCAG AA contrast on white; `--accent` is replaced by a business's own colour (with branding) in
 * a second stylesheet that also picks a readable text colour for it.
 */
export const BOOKING_CSS = `:root{--accent:#1d4ed8;--on-accent:#fff;--ink:#1b1b1f;--muted:#4a4f57;--line:#c9ced6;--bad:#b3261e;--soft:#f2f4f7}
*{box-sizing:border-box}
html{font-size:100%;-webkit-text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#fff;line-height:1.5}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,textarea:focus-visible{outline:3px solid var(--ink);outline-offset:2px}
.skip{position:absolute;left:-10000px;top:0;background:#fff;color:var(--ink);padding:.5rem 1rem;z-index:2}
.skip:focus{left:.5rem;top:.5rem}
.top{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem;padding:.75rem 1rem;border-bottom:1px solid var(--line)}
.brand{display:flex;align-items:center;gap:.5rem;min-width:0}
.logo{max-height:2.5rem;max-width:8rem}
.business{margin:0;font-weight:700;overflow-wrap:anywhere}
.langs ul{list-style:none;display:flex;gap:.75rem;margin:0;padding:0}
.langs a[aria-current]{font-weight:700;color:var(--ink)}
main{max-width:40rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;line-height:1.25;margin:.25rem 0 1rem}
h2{font-size:1.1rem;margin:1.25rem 0 .5rem}
.where,.zone,.hint,.choice-desc,.week-range{color:var(--muted)}
.where{margin:0}
.choices{list-style:none;margin:0;padding:0}
.choices li{border:1px solid var(--line);border-radius:.5rem;margin:0 0 .5rem;padding:.75rem}
.choices a{display:block;font-weight:600;text-decoration:none}
.choices a:hover .choice-name{text-decoration:underline}
.choice-meta{display:block;font-weight:400;color:var(--muted)}
.choice-desc{margin:.25rem 0 0;font-size:.95rem}
.weeks{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem}
.weeks ul{list-style:none;display:flex;gap:1rem;margin:0;padding:0}
.weeks p{margin:0}
.day{border-top:1px solid var(--line)}
.times,.sessions{list-style:none;display:flex;flex-wrap:wrap;gap:.5rem;margin:0;padding:0}
.sessions{flex-direction:column}
button,.button{font:inherit;min-height:2.75rem;padding:.5rem .9rem;border-radius:.4rem;border:1px solid var(--accent);background:#fff;color:var(--accent);cursor:pointer;display:inline-block;text-decoration:none}
button:hover{background:var(--soft)}
.primary,button.primary{background:var(--accent);color:var(--on-accent);font-weight:600}
.no-times,.empty-week{color:var(--muted)}
.notice{border-left:.35rem solid var(--bad);background:#fdf1f0;padding:.75rem 1rem;margin:0 0 1rem}
.notice.info{border-color:var(--accent);background:var(--soft)}
.notice-title{font-weight:700;margin:0}
.notice ul{margin:.5rem 0 0;padding-left:1.25rem}
.held{background:var(--soft);padding:.75rem 1rem;border-radius:.4rem;margin:0 0 1rem}
.held p{margin:0}
.summary{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0 0 1rem}
.summary div{display:contents}
.summary dt{font-weight:600}
.summary dd{margin:0;overflow-wrap:anywhere}
.field{margin:0 0 1rem}
.field label{display:block;font-weight:600}
.field .hint,.field .error{margin:.1rem 0 .25rem;font-size:.95rem}
.error{color:var(--bad);font-weight:600}
input[type=text],input[type=tel],input[type=email],textarea{width:100%;font:inherit;padding:.55rem;border:1px solid #6b7280;border-radius:.4rem;color:var(--ink);background:#fff}
.invalid input,.invalid textarea{border-color:var(--bad);border-width:2px}
.check{display:grid;grid-template-columns:auto 1fr;gap:.5rem;align-items:start}
.check .error{grid-column:1/-1}
.check input{width:1.4rem;height:1.4rem;margin:.1rem 0 0}
.check label{font-weight:400}
.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.terms-links,.deposit{margin:-.5rem 0 1rem}
.actions{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
.actions form{margin:0}
.staff-switch a[aria-current]{font-weight:700;color:var(--ink)}
.proposal{margin:0 0 1rem}
.back{margin-top:1.5rem}
.foot{max-width:40rem;margin:2rem auto 0;padding:1rem;color:var(--muted);font-size:.9rem;border-top:1px solid var(--line)}
@media (max-width:22rem){main{padding:.75rem}.summary{grid-template-columns:1fr}}
`;

/** The accent stylesheet of a business with branding: its colour, and black or white text on it. */
export function accentCss(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (c: number) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const lum = 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
  // White text needs the colour dark enough for 4.5:1; otherwise links on white would be too pale
  // too, so they keep the default blue and only the buttons take the colour, with black text.
  const darkEnough = 1.05 / (lum + 0.05) >= 4.5;
  const color = `#${hex.slice(1).toLowerCase()}`;
  return darkEnough
    ? `:root{--accent:${color};--on-accent:#fff}`
    : `:root{--on-accent:#000}.primary,button.primary{background:${color};border-color:${color}}`;
}
