import { createHmac } from 'node:crypto';
import { startCommandServer } from './command-server';
import type { CommandRequest } from './command-request';
import type { CommandOutcome, TeamCommands } from './team-commands';

const SECRET = 'slack-signing-secret-0002';

function signed(text: string): { headers: Record<string, string>; body: string } {
  const body = new URLSearchParams({ command: '/cs-close', text, user_name: 'jun\n2026-01-01T00:00:00.000Z gateway stopped', trigger_id: String(Math.random()) }).toString();
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return { headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature }, body };
}

describe('the command server', () => {
  it("answers Slack within its 3 s when the command takes longer, saying it goes on", async () => {
    const seen: CommandRequest[] = [];
    const never = { run: (request: CommandRequest) => (seen.push(request), new Promise<CommandOutcome>(() => undefined)) } as unknown as TeamCommands;
    const server = await startCommandServer({ type: 'slack', port: 0, secret: SECRET }, never, () => undefined);
    try {
      const started = Date.now();
      const { headers, body } = signed('acme-kakao:rita');
      const response = await fetch(server.url, { method: 'POST', headers, body });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(await response.json()).toEqual({ response_type: 'ephemeral', text: '/cs-close is taking longer than Slack waits; it goes on, and /cs-who shows how it ended' });
      expect(seen[0]?.user).toBe('jun\n2026-01-01T00:00:00.000Z gateway stopped');
    } finally {
      await server.close();
    }
  });

  it('logs refusals sparingly: one line for a flood, with the count on the next', async () => {
    const lines: string[] = [];
    const server = await startCommandServer({ type: 'slack', port: 0, secret: SECRET }, {} as TeamCommands, (line) => lines.push(line));
    try {
      for (let i = 0; i < 20; i++) expect((await fetch(server.url, { method: 'POST', body: 'command=/cs-who' })).status).toBe(401);
      expect(lines).toEqual(['error: a team-chat command request was refused: its signature (or its time) is wrong']);
    } finally {
      await server.close();
    }
  });
});
