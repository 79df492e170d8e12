/**
 * The dashboard's style sheet: system fonts, the platform's light or dark scheme, a visible focus
 * ring, and status colours that keep a 4.5:1 contrast on either background.
 *
 * @example
 * dashboardFile('/__dashboard/app.css')?.text === DASHBOARD_STYLE // true
 */
export const DASHBOARD_STYLE = `:root { color-scheme: light dark; --fg: #1a1a1a; --bg: #fff; --muted: #5a5a5a; --line: #d0d0d0;
  --ok: #0b6b2f; --bad: #a3111d; --warn: #7a4b00; --accent: #2445a8; --panel: #f5f6f8; }
@media (prefers-color-scheme: dark) { :root { --fg: #ececec; --bg: #161719; --muted: #a6a6a6; --line: #3a3b3f;
  --ok: #6fd28f; --bad: #ff8a8a; --warn: #f0c060; --accent: #9bb4ff; --panel: #202226; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; align-items: center; gap: 1.5rem; padding: .5rem 1rem; border-bottom: 1px solid var(--line); }
header h1 { font-size: 1rem; margin: 0; }
nav ul { display: flex; gap: .25rem; list-style: none; margin: 0; padding: 0; }
nav a { display: inline-block; padding: .35rem .75rem; border-radius: 4px; color: var(--fg); text-decoration: none; }
nav a[aria-current="page"] { background: var(--panel); font-weight: 600; box-shadow: inset 0 -2px 0 var(--accent); }
.live { margin-left: auto; color: var(--muted); font-size: .85rem; }
main { padding: 1rem; }
h2 { font-size: 1.1rem; margin: 0 0 .75rem; }
.filters { display: flex; flex-wrap: wrap; gap: 1rem; align-items: end; margin-bottom: .75rem; }
.filters label { display: flex; flex-direction: column; gap: .2rem; font-size: .85rem; color: var(--muted); }
input, select, button { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: .3rem .5rem; }
button { cursor: pointer; background: var(--panel); }
button:disabled { cursor: default; opacity: .6; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: .85rem; }
tr.selectable { cursor: pointer; }
tr[aria-selected="true"] { background: var(--panel); }
code, pre { font: 12px/1.4 ui-monospace, monospace; }
pre { background: var(--panel); padding: .5rem; overflow: auto; max-height: 24rem; margin: .25rem 0 .75rem; white-space: pre-wrap; word-break: break-all; }
.status-ok { color: var(--ok); font-weight: 600; }
.status-bad { color: var(--bad); font-weight: 600; }
.status-wait { color: var(--warn); font-weight: 600; }
.split { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; align-items: start; }
.list { overflow-x: auto; }
td.clip { max-width: 12rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
td.time, td.time + td { white-space: nowrap; }
dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .15rem .75rem; margin: 0 0 .75rem; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
.detail { border-left: 1px solid var(--line); padding-left: 1rem; position: sticky; top: 0; }
.detail h3 { font-size: .95rem; margin: .5rem 0 0; }
.event { border: 1px solid var(--line); border-radius: 6px; margin-bottom: .75rem; padding: .5rem .75rem; }
.event h3 { font-size: 1rem; margin: 0; display: flex; gap: .75rem; flex-wrap: wrap; align-items: baseline; }
.destination { margin-top: .5rem; padding-top: .5rem; border-top: 1px dashed var(--line); }
.destination p { margin: .25rem 0; }
.muted { color: var(--muted); }
h4 { font-size: .85rem; margin: .6rem 0 .2rem; color: var(--muted); }
.secrets { margin: 0; padding-left: 1.2rem; }
.actions { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; margin-top: .6rem; }
.actions label { display: flex; flex-direction: column; gap: .2rem; font-size: .85rem; color: var(--muted); }
.events-list code { margin-right: .35rem; }
.related { margin-top: .75rem; }
.related h3 { font-size: .95rem; margin: 0 0 .25rem; }
.related ul, .lines { margin: 0; padding-left: 1.2rem; }
.lines { font-size: .85rem; color: var(--muted); }
.object > h2 { display: flex; gap: .75rem; align-items: baseline; flex-wrap: wrap; }
a { color: var(--accent); }
.now { font-size: 1.2rem; margin: .25rem 0; }
.triggers { display: flex; flex-wrap: wrap; gap: .4rem; list-style: none; padding: 0; }
.scroller { max-height: calc(100vh - 10rem); overflow-y: auto; }
.scroller thead th { position: sticky; top: 0; background: var(--bg); z-index: 1; }
tr.row, tr.row-pending { height: 33px; }
tr.row-pending td { color: var(--muted); padding-top: 0; padding-bottom: 0; }
tr.row td { white-space: nowrap; padding-top: 0; padding-bottom: 0; vertical-align: middle; }
tr.row button { padding: .1rem .5rem; }
label.inline { font-size: .85rem; color: var(--muted); }
.empty { color: var(--muted); font-style: italic; }
.filters p.from { margin: 0; }
.walk-controls { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .75rem 0; }
.walk-controls .keys { margin-left: auto; font-size: .85rem; }
.to-violation { border-color: var(--bad); color: var(--bad); font-weight: 600; }
.walk-body { display: grid; grid-template-columns: minmax(12rem, 1fr) minmax(0, 3fr); gap: 1rem; align-items: start; }
ol.steps { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: .2rem; }
ol.steps button { width: 100%; text-align: left; background: var(--bg); border-color: transparent; }
ol.steps button[aria-current="step"] { background: var(--panel); border-color: var(--accent); font-weight: 600; }
ol.steps button.violation-step { border-left: 3px solid var(--bad); }
.step-n { color: var(--muted); font-variant-numeric: tabular-nums; }
.step-marks { display: block; font-size: .8rem; color: var(--bad); }
.verdicts ul { margin: .25rem 0; padding-left: 1.25rem; }
.verdicts h3 { font-size: 1rem; margin: 0; }
button.link { background: none; border: none; padding: 0 .15rem; color: var(--accent); text-decoration: underline; }
.violation-here { color: var(--bad); font-weight: 600; }
.sequence .lanes, .sequence li.moment { display: grid; grid-template-columns: 6.5rem minmax(0, 1fr); gap: .5rem; }
.sequence .lanes { font-weight: 600; color: var(--muted); border-bottom: 2px solid var(--line); padding-bottom: .25rem; }
.sequence .lanes { grid-template-columns: 6.5rem minmax(0, 1fr) minmax(0, 1fr); }
.sequence .lanes span:nth-child(3) { text-align: right; }
.sequence ol { list-style: none; margin: 0; padding: 0; }
.sequence li.moment { padding: .35rem 0; border-bottom: 1px dotted var(--line); }
.sequence li.moment:focus { outline: 2px solid var(--accent); }
.sequence li.witness { background: color-mix(in srgb, var(--bad) 10%, transparent); box-shadow: inset 3px 0 0 var(--bad); }
.lanes-body { border-left: 2px solid var(--line); border-right: 2px solid var(--line); padding: 0 .5rem; }
.sequence .at { font-size: .8rem; font-variant-numeric: tabular-nums; }
.arrow { position: relative; margin: .1rem 0 .35rem; padding-bottom: .2rem; border-bottom: 2px solid var(--fg); }
.arrow.answer { border-bottom-style: dashed; }
.arrow.to-app { margin-right: .5rem; }
.arrow.to-app::after { content: ''; position: absolute; right: -.5rem; bottom: -.4rem; border: .35rem solid transparent; border-left: .5rem solid var(--fg); }
.arrow.to-provider { margin-left: .5rem; text-align: right; }
.arrow.to-provider::after { content: ''; position: absolute; left: -.5rem; bottom: -.4rem; border: .35rem solid transparent; border-right: .5rem solid var(--fg); }
.arrow-label { display: inline-block; }
.note { display: inline-block; max-width: 75%; padding: .15rem .5rem; border: 1px solid var(--line); border-radius: 4px; background: var(--panel); overflow-wrap: anywhere; }
.note.on-app { float: right; clear: both; }
.note.fault { display: block; max-width: none; text-align: center; border-color: var(--warn); color: var(--warn); }
.witness-tag { margin: .25rem 0 0; color: var(--bad); font-weight: 600; font-size: .85rem; clear: both; }
q.answer { font-family: ui-monospace, monospace; font-size: 12px; }
details summary { cursor: pointer; color: var(--muted); font-size: .85rem; }
.arrow.forged { border-bottom-color: var(--bad); color: var(--bad); }
.note.redeploy { border-color: var(--accent); }
.note.action { border-color: var(--fg); }
.action-facts { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 0 .5rem; margin: .2rem 0 0; font-size: .85rem; }
.action-facts dd { margin: 0; }
.witness-list { font-weight: 400; color: var(--fg); }
`
