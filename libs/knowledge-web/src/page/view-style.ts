/** The view page's style sheet (served from /assets/view.css: the page's CSP allows no inline style). */
export const VIEW_CSS = `* { box-sizing: border-box; }
html, body { height: 100%; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: #1d2330; background: #f5f6f8;
  display: grid; grid-template-rows: auto minmax(0, 1fr) auto; }
header { display: flex; align-items: center; gap: 1rem; padding: .6rem 1rem; background: #fff; border-bottom: 1px solid #d5dae3; flex-wrap: wrap; }
h1 { font-size: 1.1rem; margin: 0; }
h2 { font-size: .8rem; text-transform: uppercase; letter-spacing: .06em; color: #5b6b82; margin: 0 0 .5rem; }
#summary { margin: 0; color: #5b6b82; flex: 1; min-width: 12rem; }
#search-form { display: flex; gap: .4rem; flex: 0 1 30rem; }
input, textarea { font: inherit; padding: .4rem .5rem; border: 1px solid #b8bfcc; border-radius: 4px; background: #fff; color: inherit; }
#search-input { flex: 1; min-width: 0; }
textarea { width: 100%; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; resize: vertical; }
button { font: inherit; padding: .4rem .9rem; border: 0; border-radius: 4px; background: #2357d9; color: #fff; cursor: pointer; }
button.secondary { background: #e4e7ee; color: #1d2330; }
button.link { background: none; color: #2357d9; padding: 0; text-align: left; }
button:disabled { opacity: .5; cursor: default; }
main { display: grid; grid-template-columns: minmax(0, 1fr) 24rem; min-height: 0; }
#graph-pane { position: relative; min-height: 0; background: #fff; }
#graph { position: absolute; inset: 0; }
#toolbar { position: absolute; top: .6rem; left: .6rem; display: flex; gap: .4rem; }
#legend { position: absolute; bottom: .6rem; left: .6rem; margin: 0; padding: .4rem .6rem; list-style: none; background: #ffffffe6;
  border: 1px solid #d5dae3; border-radius: 4px; font-size: 12px; }
#legend li { display: flex; align-items: center; gap: .4rem; }
.swatch { display: inline-block; width: .75rem; height: .75rem; border-radius: 50%; flex: none; }
#graph-message { position: absolute; top: 40%; left: 10%; right: 10%; text-align: center; color: #5b6b82; font-size: 1rem; }
aside { overflow: auto; border-left: 1px solid #d5dae3; padding: .8rem 1rem; display: flex; flex-direction: column; gap: 1.2rem; }
.hint { color: #7a8598; font-size: 12px; font-weight: normal; }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 3px; color: #fff; font-size: 12px; font-weight: 600; }
#details h3 { font-size: 1rem; margin: .4rem 0; overflow-wrap: anywhere; }
table.props { width: 100%; border-collapse: collapse; font-size: 13px; }
table.props th { text-align: left; vertical-align: top; color: #5b6b82; font-weight: 600; padding: .2rem .6rem .2rem 0; white-space: nowrap; }
table.props td { padding: .2rem 0; overflow-wrap: anywhere; white-space: pre-wrap; }
.null { color: #9aa3b2; }
.actions { display: flex; flex-wrap: wrap; gap: .4rem; margin-top: .6rem; }
#hits { margin: 0; padding: 0; list-style: none; display: flex; flex-direction: column; gap: .4rem; }
#hits li { padding: .4rem .5rem; border: 1px solid #e4e7ee; border-radius: 4px; background: #fff; cursor: pointer; }
#hits li:hover, #hits li:focus { border-color: #2357d9; outline: none; }
#hits .meta { display: flex; gap: .5rem; align-items: center; font-size: 12px; color: #5b6b82; }
#hits .text { margin-top: .2rem; overflow-wrap: anywhere; }
#cypher-pane { background: #fff; border-top: 1px solid #d5dae3; padding: .6rem 1rem; max-height: 42vh; overflow: auto; }
#cypher-form label { display: block; font-weight: 600; margin-bottom: .3rem; }
.row { display: flex; align-items: center; gap: .8rem; margin-top: .4rem; }
#cypher-status.error, #search-status.error { color: #b3261e; font-weight: 600; }
#cypher-result table { border-collapse: collapse; margin-top: .6rem; font-size: 13px; min-width: 50%; }
#cypher-result th, #cypher-result td { border: 1px solid #e4e7ee; padding: .25rem .5rem; text-align: left; vertical-align: top; max-width: 40rem; overflow-wrap: anywhere; }
#cypher-result th { background: #f5f6f8; }
#cypher-result th .type { display: block; font-weight: normal; font-size: 11px; color: #7a8598; }
#cypher-result td.number { text-align: right; font-variant-numeric: tabular-nums; }
.chip { border: 1px solid #d5dae3; border-radius: 10px; padding: 0 .5rem; background: #fff; color: inherit; font-size: 12px; cursor: pointer; }
@media (max-width: 800px) { main { grid-template-columns: 1fr; grid-template-rows: 60vh auto; } aside { border-left: 0; border-top: 1px solid #d5dae3; } }
`;
