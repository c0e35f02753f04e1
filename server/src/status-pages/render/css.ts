import { createHash } from 'node:crypto';

const ACCENT = /^#[0-9a-fA-F]{6}$/;

// Light values first; dark ones apply by choice or, in auto mode, by the visitor's setting.
const light =
  '--bg:#f6f8fa;--card:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;' +
  '--up:#1a7f37;--degraded:#9a6700;--down:#cf222e;--maintenance:#0969da;--none:#d1d9e0;--tip:#1f2328;--tipfg:#fff;--link:var(--accent)';
const dark =
  '--bg:#0d1117;--card:#151b23;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;' +
  '--up:#3fb950;--degraded:#d29922;--down:#f85149;--maintenance:#4493f8;--none:#3d444d;--tip:#e6edf3;--tipfg:#0d1117;--link:color-mix(in srgb,var(--accent) 55%,#fff)';

const base = `
*{box-sizing:border-box}
html{background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;-webkit-text-size-adjust:100%}
body{margin:0}
a{color:var(--link)}
a:focus-visible,[tabindex]:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.wrap{max-width:52rem;margin:0 auto;padding:0 1rem}
.top{padding:1.5rem 0 1rem}
.top .wrap{display:flex;flex-wrap:wrap;align-items:center;gap:.75rem 1rem}
.logo{max-height:3rem;max-width:12rem;width:auto}
h1{font-size:1.5rem;margin:0;flex:1 1 12rem;overflow-wrap:anywhere}
h1 a{color:inherit;text-decoration:none}
.short{display:none}
h2{font-size:1.125rem;margin:2rem 0 .75rem;overflow-wrap:anywhere}
h3{font-size:1rem;margin:0;overflow-wrap:anywhere}
.sub{border:1px solid var(--link);border-radius:.375rem;padding:.375rem .875rem;text-decoration:none;font-weight:600}
.banner{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:baseline;gap:.25rem 1rem;padding:1rem 1.25rem;border-radius:.5rem;background:var(--card);border:1px solid var(--line);border-left:.5rem solid var(--s);font-weight:600;font-size:1.125rem}
.banner small{font-weight:400;font-size:.875rem;color:var(--muted)}
.b-operational{--s:var(--up)}.b-degraded{--s:var(--degraded)}.b-partial_outage,.b-major_outage{--s:var(--down)}
.b-maintenance{--s:var(--maintenance)}.b-no_data,.b-unknown{--s:var(--muted)}
.desc{margin:1rem 0;overflow-wrap:anywhere}
.card{background:var(--card);border:1px solid var(--line);border-radius:.5rem}
.list{list-style:none;margin:0;padding:0}
.comp{padding:1rem 1.25rem;border-top:1px solid var(--line)}
.comp:first-child{border-top:0}
.row{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:baseline;gap:.25rem 1rem}
.name{font-weight:600;overflow-wrap:anywhere;min-width:0}
.st{font-size:.875rem;font-weight:600;color:var(--s);white-space:nowrap}
.st::before{content:"";display:inline-block;width:.625rem;height:.625rem;border-radius:50%;background:var(--s);margin-right:.375rem}
.s-up{--s:var(--up)}.s-degraded{--s:var(--degraded)}.s-down{--s:var(--down)}.s-regional{--s:var(--degraded)}.s-unknown{--s:var(--muted)}.s-maintenance{--s:var(--maintenance)}
.s-paused,.s-pending{--s:var(--muted)}
.st-long{white-space:normal;text-align:right}
.vh{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.locs{list-style:none;margin:.5rem 0 0;padding:0;display:flex;flex-wrap:wrap;gap:.375rem}
.loc{display:inline-flex;align-items:center;gap:.375rem;padding:.125rem .5rem;border:1px solid var(--line);border-radius:1rem;font-size:.8125rem;max-width:100%}
.loc::before{content:"";flex:none;width:.5rem;height:.5rem;border-radius:50%;background:var(--s)}
.loc-n{font-weight:600;overflow-wrap:anywhere;min-width:0}.loc-s{color:var(--muted)}
.mos{margin:.75rem 0 0}
.months{list-style:none;margin:0 0 .25rem;padding:0;display:grid;grid-template-columns:repeat(12,minmax(0,1fr));gap:2px}
.mo{--s:var(--none);display:flex;flex-direction:column;align-items:center;padding:.25rem 0 .125rem;border-top:.25rem solid var(--s);background:color-mix(in srgb,var(--s) 10%,transparent);border-radius:2px;font-size:.75rem;line-height:1.3;min-width:0}
.mo-up{--s:var(--up)}.mo-degraded{--s:var(--degraded)}.mo-down{--s:var(--down)}
.mo-n{color:var(--muted)}.mo-v{font-weight:600;font-variant-numeric:tabular-nums;white-space:nowrap}
.mo-none .mo-v{font-weight:400;color:var(--muted)}
.cnote{margin:.25rem 0 0;font-size:.875rem;font-weight:600;color:var(--fg)}
.cnote::before{content:"";display:inline-block;width:.25rem;height:.875rem;margin-right:.5rem;vertical-align:-.125rem;border-radius:1px;background:var(--down)}
.tz{margin:.5rem 0 0}
.muted,.cdesc{color:var(--muted);font-size:.875rem;margin:.25rem 0 0;overflow-wrap:anywhere}
.bars{display:flex;gap:2px;margin:.75rem 0 .25rem;height:2rem}
.bars>i{flex:1;position:relative;font-style:normal;border-radius:2px;background:var(--up);min-width:2px;--t:"100% up"}
.bars>.n{background:var(--none);--t:"no data"}.bars>.g{background:var(--degraded)}.bars>.d{background:var(--down)}.bars>.m{background:var(--maintenance)}
.bars>i:hover::after,.bars>i:focus::after{content:var(--d) ": " var(--t);position:absolute;z-index:2;bottom:calc(100% + .5rem);right:0;width:max-content;max-width:14rem;padding:.375rem .5rem;border-radius:.25rem;background:var(--tip);color:var(--tipfg);font-size:.8125rem;pointer-events:none}
.bars>[aria-label]:hover::after,.bars>[aria-label]:focus::after{content:attr(aria-label)}
.bars>:nth-child(-n+45):hover::after,.bars>:nth-child(-n+45):focus::after{right:auto;left:0}
.foot{display:flex;justify-content:space-between;gap:1rem;color:var(--muted);font-size:.8125rem}
.foot>span:first-child,.foot>span:last-child{white-space:nowrap}
.rt{margin:.75rem 0 0}.rt .foot{flex-wrap:wrap;column-gap:1rem;row-gap:0}
.rt svg{display:block;width:100%;height:3rem;overflow:visible}
.rt-area{fill:color-mix(in srgb,var(--link) 16%,transparent)}
.rt-line{fill:none;stroke:var(--link);stroke-width:2;stroke-linejoin:round;stroke-linecap:round}
.inc{padding:1rem 1.25rem;border-top:1px solid var(--line)}
.inc:first-child{border-top:0}
.inc.open{border-left:4px solid var(--down)}
.inc>h2{margin:0}
.upd{margin:.75rem 0 0;padding:0;list-style:none}
.upd li{margin-top:.5rem}
.msg{white-space:pre-wrap;overflow-wrap:anywhere;margin:.125rem 0 0}
.state{font-weight:600}
.none{padding:1rem 1.25rem;color:var(--muted);margin:0}
.site{margin-top:2.5rem;margin-bottom:2rem;color:var(--muted);font-size:.875rem;overflow-wrap:anywhere}
.site nav{display:flex;flex-wrap:wrap;gap:.5rem 1rem;margin-top:.75rem}
@media (max-width:40rem){.months{grid-template-columns:repeat(6,minmax(0,1fr));row-gap:.25rem}.bars>:nth-child(-n+60),.long{display:none}.short{display:inline}.bars>:nth-child(-n+75):hover::after,.bars>:nth-child(-n+75):focus::after{right:auto;left:0}.banner,.comp,.inc{padding:.875rem}}
`;

const compact = (css: string) => css.replace(/\n/g, '');
const BASE = compact(base);

/** The page's whole stylesheet: one `<style>`, themed by the page's mode and accent. */
export function pageCss(mode: 'auto' | 'light' | 'dark', accent: string): string {
  // Validated on input; checked again because it is written into a stylesheet.
  const a = ACCENT.test(accent) ? accent : '#2563eb';
  const scheme =
    mode === 'light'
      ? `:root{${light};color-scheme:light}`
      : mode === 'dark'
        ? `:root{${dark};color-scheme:dark}`
        : `:root{${light};color-scheme:light dark}@media (prefers-color-scheme:dark){:root{${dark}}}`;
  return `${scheme}:root{--accent:${a}}${BASE}`;
}

/** CSP source for exactly this stylesheet. */
export const styleHash = (css: string): string =>
  `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;
