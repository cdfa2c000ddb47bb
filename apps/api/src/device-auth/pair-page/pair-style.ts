/** The pairing page's style sheet (served from /pair/pair.css: the page's CSP allows no inline style). */
export const PAIR_CSS = `body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f5f6f8; color: #1d2330; }
main { max-width: 34rem; margin: 3rem auto; padding: 2rem; background: #fff; border-radius: 8px; box-shadow: 0 1px 4px #0002; }
h1 { font-size: 1.4rem; margin-top: 0; }
label, legend { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
input, select { width: 100%; box-sizing: border-box; padding: .5rem; font: inherit; border: 1px solid #b8bfcc; border-radius: 4px; }
#user-code { font-family: ui-monospace, monospace; font-size: 1.3rem; letter-spacing: .15em; text-transform: uppercase; }
fieldset { border: 1px solid #d5dae3; border-radius: 4px; margin-top: 1rem; }
fieldset label { font-weight: normal; margin: .25rem 0; }
fieldset input { width: auto; margin-right: .5rem; }
button { margin-top: 1.25rem; padding: .55rem 1.2rem; font: inherit; border: 0; border-radius: 4px; background: #2357d9; color: #fff; cursor: pointer; }
button.secondary { background: #e4e7ee; color: #1d2330; margin-left: .5rem; }
button:disabled { opacity: .5; cursor: default; }
#status { min-height: 1.5rem; font-weight: 600; }
#status.error { color: #b3261e; }
#status.done { color: #1b7a3a; }
`;
