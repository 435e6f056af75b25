/**
 * The one stylesheet, served by the app (no CDN: the service must work offline). Kept as a string so the
 * TypeScript build ships it without a copy step. Colours meet WCAG AA contrast on their backgrounds.
 */
import { createHash } from 'node:crypto';

export const APP_CSS = `
:root {
  --ink: #1b1f24; --muted: #4f5863; --line: #d5dae0; --bg: #f6f7f9; --card: #ffffff;
  --accent: #1d4ed8; --accent-ink: #ffffff; --focus: #b45309;
  --high: #166534; --high-bg: #dcfce7; --mid: #854d0e; --mid-bg: #fef3c7; --low: #991b1b; --low-bg: #fee2e2;
  --rep-bg: #eef4ff; --rep-line: #1d4ed8;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  line-height: 1.5; color: var(--ink); background: var(--bg);
}
* { box-sizing: border-box; }
body { margin: 0; }
a { color: var(--accent); }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
main:focus { outline: none; }
h1 { font-size: 1.6rem; margin: 0.5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; }
h3 { font-size: 1rem; margin: 0; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.skip-link { position: absolute; left: 0.5rem; top: -3rem; background: var(--card); padding: 0.5rem 1rem; z-index: 10; border: 2px solid var(--accent); }
.skip-link:focus { top: 0.5rem; }
.env-banner { background: #7c2d12; color: #ffffff; text-align: center; padding: 0.35rem 1rem; font-size: 0.95rem; }
.site-header { display: flex; align-items: center; gap: 1.5rem; flex-wrap: wrap; padding: 0.75rem 1.5rem; background: var(--card); border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; font-size: 1.15rem; color: var(--ink); text-decoration: none; }
.site-header nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; list-style: none; margin: 0; padding: 0; }
.site-header nav a { text-decoration: none; padding: 0.25rem 0; }
.site-header nav a[aria-current="page"] { font-weight: 600; border-bottom: 2px solid var(--accent); }
.account { margin-left: auto; display: flex; align-items: center; gap: 0.75rem; }
.role { font-size: 0.8rem; color: var(--muted); border: 1px solid var(--line); border-radius: 999px; padding: 0 0.5rem; }
form.inline { display: inline; margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
.narrow { max-width: 26rem; margin: 2rem auto; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; }
.login h1 { font-size: 1.4rem; }
.stack { display: flex; flex-direction: column; gap: 1rem; }
.field { display: flex; flex-direction: column; gap: 0.25rem; }
label { font-weight: 600; font-size: 0.95rem; }
input, select { font: inherit; padding: 0.5rem 0.6rem; border: 1px solid #6b7480; border-radius: 6px; background: #fff; color: var(--ink); min-width: 10rem; }
.button { font: inherit; cursor: pointer; padding: 0.5rem 1rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--card); color: var(--accent); font-weight: 600; }
.button.primary { background: var(--accent); color: var(--accent-ink); }
.button-link { font: inherit; cursor: pointer; background: none; border: none; color: var(--accent); text-decoration: underline; padding: 0.25rem; }
.alert { border: 1px solid var(--low); background: var(--low-bg); color: var(--low); border-radius: 6px; padding: 0 0.75rem; }
.filters { display: flex; flex-wrap: wrap; gap: 0.75rem 1rem; align-items: flex-end; margin-bottom: 1rem; }
.filter-actions { display: flex; gap: 1rem; align-items: center; }
.filters .field-search { flex-basis: 100%; }
.filters .field-search input { max-width: 32rem; }
.filters .field-score input { min-width: 0; width: 7rem; }
.table-wrap { overflow-x: auto; background: var(--card); border: 1px solid var(--line); border-radius: 8px; }
table.calls { width: 100%; border-collapse: collapse; }
table.calls th, table.calls td { text-align: left; padding: 0.6rem 0.75rem; border-bottom: 1px solid var(--line); vertical-align: top; }
table.calls thead th { font-size: 0.85rem; color: var(--muted); background: #fafbfc; }
table.calls tbody tr:last-child td { border-bottom: none; }
.num { text-align: right !important; }
.nowrap { white-space: nowrap; }
.sub { display: inline; color: var(--muted); font-size: 0.875rem; }
td .sub { display: block; }
.speaker-reason { display: block; margin-top: 0.25rem; }
.criteria-json { overflow-x: auto; white-space: pre-wrap; font-size: 0.875rem; }
.muted { color: var(--muted); }
.empty { background: var(--card); border: 1px dashed var(--line); border-radius: 8px; padding: 2rem; text-align: center; }
.pager { display: flex; gap: 1.5rem; justify-content: flex-end; margin-top: 1rem; }
.status { display: inline-block; font-size: 0.85rem; padding: 0 0.5rem; border-radius: 999px; border: 1px solid var(--line); background: #f1f3f5; }
.status-scored { background: var(--high-bg); color: var(--high); border-color: #86efac; }
.status-failed { background: var(--low-bg); color: var(--low); border-color: #fca5a5; }
.status-skipped { background: #eceff3; color: #374151; }
.score { display: inline-block; min-width: 2.5rem; text-align: center; font-weight: 700; border-radius: 6px; padding: 0 0.4rem; }
.score-high { background: var(--high-bg); color: var(--high); }
.score-mid { background: var(--mid-bg); color: var(--mid); }
.score-low { background: var(--low-bg); color: var(--low); }
.score-na { background: #eceff3; color: #374151; }
.score-big { font-size: 2rem; padding: 0.1rem 0.75rem; }
.breadcrumb { margin: 0.5rem 0 0; }
.summary { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 0.75rem 1.5rem; margin: 0 0 1rem; }
.summary dt { font-size: 0.85rem; color: var(--muted); }
.summary dd { margin: 0; }
.call-score { margin: 0.25rem 0 1rem; }
.criteria { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: 0.75rem; }
.criterion { border-top: 1px solid var(--line); padding-top: 0.75rem; }
.criterion-head { display: flex; justify-content: space-between; gap: 1rem; align-items: baseline; }
.rationale { margin: 0.25rem 0; }
.evidence { margin: 0.25rem 0 0; padding-left: 1.25rem; }
.evidence li { margin: 0.2rem 0; }
.participants { padding-left: 1.25rem; }
.transcript { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: 0.5rem; }
.turn { background: var(--card); border: 1px solid var(--line); border-left: 4px solid var(--line); border-radius: 6px; padding: 0.5rem 0.75rem; scroll-margin-top: 1rem; }
.turn-rep { background: var(--rep-bg); border-left-color: var(--rep-line); }
.turn:target { outline: 3px solid var(--focus); outline-offset: 2px; }
.turn-playing { border-left-color: var(--focus); box-shadow: inset 4px 0 0 var(--focus); }
.turn-head { display: flex; gap: 0.6rem; align-items: baseline; }
.speaker { font-weight: 600; }
.badge { display: inline-block; font-size: 0.75rem; font-weight: 700; color: #ffffff; background: var(--rep-line); border-radius: 4px; padding: 0 0.4rem; }
.turn-text { margin: 0.25rem 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
@media (prefers-reduced-motion: no-preference) { html { scroll-behavior: smooth; } }
.page-head { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 0.5rem 1rem; }
.page-actions { display: flex; gap: 0.75rem; margin: 0; }
a.button { display: inline-block; text-decoration: none; }
.notice { border: 1px solid #86efac; background: var(--high-bg); color: var(--high); border-radius: 6px; padding: 0.5rem 0.75rem; }
.field-error { color: var(--low); margin: 0.25rem 0 0; font-size: 0.9rem; }
textarea { font: inherit; padding: 0.5rem 0.6rem; border: 1px solid #6b7480; border-radius: 6px; background: #fff; color: var(--ink); width: 100%; }
textarea.code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.875rem; }
.coaching { margin-top: 1.5rem; }
.manage-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: 1.25rem; }
.notes { list-style: none; padding: 0; margin: 0.5rem 0; display: flex; flex-direction: column; gap: 0.5rem; }
.note { border-left: 3px solid var(--focus); padding: 0.25rem 0.75rem; background: #fffbeb; }
.note-body { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.override { margin-top: 0.5rem; border-left: 3px solid var(--focus); padding: 0.25rem 0.75rem; background: #fffbeb; }
.override p { margin: 0.2rem 0; }
.override-comment { white-space: pre-wrap; overflow-wrap: anywhere; }
.adjusted-score { margin: 0 0 1rem; }
.player { width: 100%; max-width: 40rem; }
.team-block { margin-bottom: 2rem; }
.choice { margin-top: 1rem; }
.rules-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 0.75rem 1rem; }
.button-row { display: flex; gap: 0.75rem; flex-wrap: wrap; }
.status-card-published { background: var(--high-bg); color: var(--high); border-color: #86efac; }
.status-card-archived { background: #eceff3; color: #374151; }
/* admin settings */
.subnav ul { display: flex; gap: 0.25rem 1.25rem; flex-wrap: wrap; list-style: none; margin: 0.25rem 0 0.75rem; padding: 0 0 0.5rem; border-bottom: 1px solid var(--line); }
.subnav a { text-decoration: none; }
.subnav a[aria-current="page"] { font-weight: 600; text-decoration: underline; text-underline-offset: 0.3rem; }
.notice { border: 1px solid #86efac; background: var(--high-bg); color: var(--high); border-radius: 6px; padding: 0 0.75rem; margin-bottom: 1rem; }
.alert ul { margin: 0 0 0.75rem; }
.alert { margin-bottom: 1rem; }
.page-head { display: flex; justify-content: space-between; align-items: center; gap: 1rem; flex-wrap: wrap; }
a.button { display: inline-block; text-decoration: none; }
.button.danger { border-color: var(--low); color: var(--low); }
.panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 1rem; align-items: start; }
.panels h2 { margin-top: 0; }
.form-card { max-width: 36rem; }
.action-form { margin: 0.5rem 0 1rem; }
fieldset { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.75rem; margin: 0; }
legend { font-weight: 600; font-size: 0.95rem; padding: 0 0.25rem; }
.check { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.25rem 0.5rem; padding: 0.2rem 0; }
.check input { min-width: 0; }
.check .sub { flex-basis: 100%; padding-left: 1.6rem; }
ul.plain { list-style: none; margin: 0; padding: 0; }
.status-rotating { background: var(--mid-bg); color: var(--mid); border-color: #fcd34d; }
.warn { color: var(--low); font-weight: 600; }
.one-time input { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; width: 100%; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
/* dashboard */
.stat-tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(8.5rem, 1fr)); gap: 0.75rem; margin: 0; }
.stat-tiles div { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 0.5rem 0.75rem; }
.stat-tiles dt { font-size: 0.85rem; color: var(--muted); }
.stat-tiles dd { margin: 0; font-size: 1.5rem; font-weight: 700; }
.chart-box { margin: 0; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 0.75rem; }
svg.chart { display: block; width: 100%; height: auto; max-width: 48rem; }
.chart-grid { stroke: var(--line); stroke-width: 1; }
.chart-label { fill: var(--muted); font-size: 12px; }
.chart-name { fill: var(--ink); }
.chart-line { stroke: var(--accent); stroke-width: 2.5; }
.chart-dot { fill: var(--accent); }
.bar-track { fill: #eceff3; }
.bar-high { fill: var(--high); } .bar-mid { fill: #b45309; } .bar-low { fill: var(--low); }
`;

export const APP_CSS_ETAG = `"${createHash('sha256').update(APP_CSS).digest('base64url').slice(0, 16)}"`;
