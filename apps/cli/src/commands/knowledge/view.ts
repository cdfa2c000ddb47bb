import type { KnowledgeGraph } from '@brandwire/knowledge';
import type { GatewayAddress } from '@brandwire/knowledge-web';
import { boolean, integer } from '@oclif/core/flags';
import { BrandwireCommand } from '../../base-command';
import { CliError } from '../../lib/cli-error';
import { knowledgeGraphPath } from '../../lib/data-dir';
import { EXIT } from '../../lib/exit-codes';
import { gatewayPaths } from '../../lib/gateway-control';
import { readGatewayState } from '../../lib/gateway-state';
import { holderOf, openReader } from '../../lib/knowledge-access';
import { knowledgeFailure } from '../../lib/knowledge-errors';
import { DEFAULT_VIEW_PORT, untilStopped, viewUrls } from '../../lib/knowledge-view';
import { fields } from '../../lib/output';

/** The gateway as its state file names it now: the view reads it at each request. */
function gatewayAddress(): GatewayAddress | undefined {
  const state = readGatewayState(gatewayPaths().statePath);
  return state?.queryToken === undefined ? undefined : { port: state.port, token: state.queryToken };
}

async function openGraphReadOnly(): Promise<KnowledgeGraph> {
  const { KnowledgeGraph } = await import('@brandwire/knowledge');
  return KnowledgeGraph.open(knowledgeGraphPath(), { readOnly: true, holder: holderOf('view') });
}

export interface ViewStarted {
  ok: true;
  url: string;
  localhostUrl: string;
  port: number;
  via: 'gateway' | 'graph';
}

export default class KnowledgeView extends BrandwireCommand {
  static override summary = 'Serve a web view of the knowledge graph on this machine until Ctrl-C';
  static override description = [
    `Serves the graph view (works offline) and a read-only /cypher?q= on 127.0.0.1 (also reachable as localhost), port ${DEFAULT_VIEW_PORT} unless --port says otherwise; --port 0 takes any free port. Reads through the running gateway when it answers, else opens the graph read-only. The browser is opened only with --open.`,
    "Each request goes through the gateway that the gateway's state file names at that moment, so a restart (a new token) changes nothing for the page. While no gateway answers (one that did not answer is asked again after 5 s, then after pauses doubling up to 60 s), the view opens the graph file read-only and holds it until a gateway answers again or 10 s pass without a request reading it; a build meanwhile is refused, naming the view. A request the gateway took but did not answer within 2 minutes (it runs one at a time, and a heavy query may hold it) fails with GATEWAY_UNAVAILABLE instead of running again in the view.",
    'Other users of this machine reach 127.0.0.1 too: every request needs a token made at each start. The printed URL carries it (?token=), and the page trades it for a cookie; programs send `Authorization: Bearer <token>`.',
    'With --json, one line {"ok":true,"url":…,"localhostUrl":…,"port":…,"via":…} is printed once the view is up (the urls with ?token=); the command then runs until Ctrl-C (SIGINT) or SIGTERM.',
  ].join('\n\n');
  static override examples = ['<%= config.bin %> knowledge view --open', '<%= config.bin %> knowledge view --port 0 --json'];
  static override flags = {
    port: integer({ description: `port on 127.0.0.1 (default ${DEFAULT_VIEW_PORT}; 0 = any free port)`, min: 0, max: 65535, default: DEFAULT_VIEW_PORT, helpValue: '<n>' }),
    open: boolean({ description: 'open the view in the browser' }),
  };

  /** Prints its JSON itself once the view is up (a long-running command): returns nothing for oclif to print. */
  async run(): Promise<void> {
    const { flags } = await this.parse(KnowledgeView);
    const reader = await openReader('view', this.session());
    const { gatewayOrGraphBackend, newAccessToken, startKnowledgeServer } = await import('@brandwire/knowledge-web');
    // the gateway may restart (a new token), stop and start again while the view runs
    const backend = gatewayOrGraphBackend({ gateway: gatewayAddress, openGraph: openGraphReadOnly, ...(reader.via === 'graph' && { opened: reader.backend }) });
    const token = newAccessToken();
    let server: Awaited<ReturnType<typeof startKnowledgeServer>>;
    try {
      server = await startKnowledgeServer({ backend, port: flags.port, view: true, token });
    } catch (error) {
      await backend.close();
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        throw new CliError('PORT_IN_USE', `port ${flags.port} on 127.0.0.1 is in use`, EXIT.error, { port: flags.port }, 'pass another --port, or --port 0 for any free port');
      }
      throw knowledgeFailure(error);
    }
    const started: ViewStarted = { ok: true, ...viewUrls(server.port, token), port: server.port, via: reader.via };
    if (this.jsonEnabled()) this.logJson(started);
    await this.show(() =>
      [
        'The knowledge graph view is up:',
        fields([
          ['url', started.url],
          ['also', started.localhostUrl],
          ['reading', reader.via === 'gateway' ? 'through the gateway' : 'the graph file (read-only)'],
        ]),
        'Press Ctrl-C to stop.',
      ].join('\n'),
    );
    // the opener's (and a new browser's) command line is visible to every user: it gets a one-time code, not the token
    if (flags.open) await this.openBrowser(server.signInUrl(), started.url);
    await untilStopped();
    await server.close();
    await backend.close();
    this.note('Stopped the knowledge graph view.');
  }

  private async openBrowser(signInUrl: string, url: string): Promise<void> {
    try {
      const { default: open } = await import('open');
      const child = await open(signInUrl);
      child.on('error', () => this.note(`Could not open a browser: open ${url} yourself.`));
    } catch {
      this.note(`Could not open a browser: open ${url} yourself.`);
    }
  }
}
