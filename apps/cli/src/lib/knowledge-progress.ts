import type { BuildPhase, BuildProgress } from '@brandwire/knowledge';

/** What `knowledge build` reports while it runs: pages read from the service and the build's phases. */
export interface BuildProgressDisplay {
  page(progress: { conversations: number; lines: number }): void;
  build(progress: BuildProgress): void;
  stop(): void;
}

const NONE: BuildProgressDisplay = { page: () => undefined, build: () => undefined, stop: () => undefined };

/** The bar advances by phase: how many conversations the service holds is not known before the last page. */
const PHASES: readonly BuildPhase[] = ['reading', 'loading', 'indexing', 'done'];

/**
 * A progress bar on stderr while it is a terminal (cli-progress, loaded only then); nothing otherwise, so piped
 * output and --json stay clean.
 */
export async function buildProgressDisplay(enabled: boolean): Promise<BuildProgressDisplay> {
  if (!enabled || process.stderr.isTTY !== true) return NONE;
  const { SingleBar } = await import('cli-progress');
  const bar = new SingleBar({
    format: '{bar} {phase}: {conversations} conversations, {messages} messages read',
    stream: process.stderr,
    barsize: 24,
    barCompleteChar: '█',
    barIncompleteChar: '░',
    hideCursor: true,
    clearOnComplete: true,
  });
  const counts = { phase: 'reading', conversations: 0, messages: 0 };
  let step = 0;
  bar.start(PHASES.length - 1, step, counts);
  return {
    page(progress) {
      // pages run ahead of the build by at most one page; their counts are what has come from the service
      counts.conversations = progress.conversations;
      counts.messages = progress.lines;
      bar.update(counts);
    },
    build(progress) {
      counts.phase = progress.phase;
      counts.conversations = Math.max(counts.conversations, progress.conversations);
      counts.messages = Math.max(counts.messages, progress.messages);
      // a large build reads and loads in turns: the bar never goes back
      step = Math.max(step, PHASES.indexOf(progress.phase));
      bar.update(step, counts);
    },
    stop() {
      bar.stop();
    },
  };
}
