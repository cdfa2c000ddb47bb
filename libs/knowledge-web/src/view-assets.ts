/** The view page and its files, all served by the knowledge server itself: no CDN, no network. */
import { readFileSync } from 'node:fs';
import { VIEW_HTML } from './page/view-html';
import { VIEW_ICON } from './page/view-icon';
import { VIEW_JS } from './page/view-script';
import { VIEW_CSS } from './page/view-style';

/** Only this origin's own script, style and calls; no framing, no forms elsewhere, no base-URI games. */
export const VIEW_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export interface Asset {
  type: string;
  body: () => string | Buffer;
}

let cytoscapeSource: Buffer | undefined;

/** cytoscape's browser build from the installed package, read once. */
function cytoscape(): Buffer {
  cytoscapeSource ??= readFileSync(require.resolve('cytoscape/dist/cytoscape.min.js'));
  return cytoscapeSource;
}

export const VIEW_ASSETS: ReadonlyMap<string, Asset> = new Map<string, Asset>([
  ['/', { type: 'text/html; charset=utf-8', body: () => VIEW_HTML }],
  ['/assets/view.js', { type: 'text/javascript; charset=utf-8', body: () => VIEW_JS }],
  ['/assets/view.css', { type: 'text/css; charset=utf-8', body: () => VIEW_CSS }],
  ['/assets/icon.svg', { type: 'image/svg+xml', body: () => VIEW_ICON }],
  ['/assets/cytoscape.min.js', { type: 'text/javascript; charset=utf-8', body: cytoscape }],
]);
