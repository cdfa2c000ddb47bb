import { CliError } from './cli-error';
import { INSTALL_WITH_GATEWAY_HINT, REPAIR_WITH_GATEWAY_HINT, STOP_GATEWAY_HINT, WRITE_HINT, knowledgeFailure } from './knowledge-errors';

// the tool loads both libraries lazily (start-up time), so the lint wants them loaded lazily here too
let KnowledgeGraphError: typeof import('@brandwire/knowledge').KnowledgeGraphError;
let KnowledgeApiError: typeof import('@brandwire/knowledge-web').KnowledgeApiError;

beforeAll(async () => {
  ({ KnowledgeGraphError } = await import('@brandwire/knowledge'));
  ({ KnowledgeApiError } = await import('@brandwire/knowledge-web'));
});

const holder = (pid: number, description: string) => ({ pid, description, readOnly: true, since: '2025-01-01T00:00:00.000Z' });

describe('knowledgeFailure', () => {
  it('tells to stop the gateway when it holds the graph, by its holder name or by the pid of its state file', () => {
    const byName = knowledgeFailure(new KnowledgeGraphError('GRAPH_LOCKED', 'in use by the gateway (pid 7)', [holder(7, 'the gateway')]));
    expect(byName).toMatchObject({ code: 'GRAPH_LOCKED', exit: 1, hint: STOP_GATEWAY_HINT, details: { holders: [holder(7, 'the gateway')] } });
    const byPid = knowledgeFailure(new KnowledgeGraphError('GRAPH_LOCKED', 'in use', [holder(9, 'a node process running main.js')]), 9);
    expect(byPid).toMatchObject({ hint: STOP_GATEWAY_HINT });
  });

  it('tells to wait for any other holder', () => {
    const other = knowledgeFailure(new KnowledgeGraphError('GRAPH_LOCKED', 'in use', [holder(5, 'brandwire knowledge view')]), 9);
    expect(other).toMatchObject({ code: 'GRAPH_LOCKED', hint: expect.stringMatching(/^wait until that process is done/) });
  });

  it.each([
    ['GRAPH_MISSING', 1, expect.stringContaining('knowledge install')],
    ['NOT_INSTALLED', 1, expect.stringContaining('knowledge install')],
    // its message says what to do: the library words it, for every reader of the graph
    ['GRAPH_NEEDS_REPAIR', 1, undefined],
    ['READ_ONLY', 1, WRITE_HINT],
    ['MISSING_PARAMETER', 2, expect.stringContaining('no parameters')],
    ['NATIVE_UNAVAILABLE', 1, expect.stringContaining('reinstall')],
  ] as const)('maps the library code %s to exit %i, with its hint where the message does not say what to do', (code, exit, hint) => {
    expect(knowledgeFailure(new KnowledgeGraphError(code, 'm'))).toMatchObject({ code, exit, message: 'm', hint, details: {} });
  });

  it.each(['NOT_INSTALLED', 'GRAPH_MISSING'] as const)('tells to stop the gateway before installing while it runs: %s', (code) => {
    expect(knowledgeFailure(new KnowledgeApiError(code, 'm'), 7)).toMatchObject({ code, exit: 1, hint: INSTALL_WITH_GATEWAY_HINT });
    expect(INSTALL_WITH_GATEWAY_HINT).toBe(
      'run `brandwire gateway stop`, then `brandwire knowledge install` and `brandwire knowledge build`, then `brandwire gateway start`',
    );
  });

  it('tells to stop the gateway for the repair and start it again after, when a graph needing repair is read through it', () => {
    expect(knowledgeFailure(new KnowledgeApiError('GRAPH_NEEDS_REPAIR', 'm'), 7)).toMatchObject({ code: 'GRAPH_NEEDS_REPAIR', exit: 1, hint: REPAIR_WITH_GATEWAY_HINT });
    expect(REPAIR_WITH_GATEWAY_HINT).toBe('run `brandwire gateway stop` before the install, and `brandwire gateway start` after it');
  });

  it("keeps the query API's codes, with the write hint only for a refused write", () => {
    const refused = knowledgeFailure(new KnowledgeApiError('BAD_QUERY', 'Connection exception: Cannot execute write operations in a read-only database!'));
    expect(refused).toMatchObject({ code: 'BAD_QUERY', exit: 1, hint: WRITE_HINT });
    const syntax = knowledgeFailure(new KnowledgeApiError('BAD_QUERY', 'Parser exception: extraneous input'));
    expect(syntax).toBeInstanceOf(CliError);
    expect((syntax as CliError).hint).toBeUndefined();
    expect(knowledgeFailure(new KnowledgeApiError('GATEWAY_UNAVAILABLE', 'no answer'))).toMatchObject({ code: 'GATEWAY_UNAVAILABLE', hint: expect.stringContaining('gateway status') });
  });

  it('passes any other error on as it is', () => {
    const error = new TypeError('x');
    expect(knowledgeFailure(error)).toBe(error);
  });
});
