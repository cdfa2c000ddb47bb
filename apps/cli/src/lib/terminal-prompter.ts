import type { Prompter } from './setup-flow';

/** Prompts on the terminal (@inquirer/prompts, loaded only when asking), written to stderr so stdout keeps the result. */
export function terminalPrompter(): Prompter | undefined {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  const context = { input: process.stdin, output: process.stderr, clearPromptOnDone: false };
  return {
    async endpoint(current) {
      const { input } = await import('@inquirer/prompts');
      return input({ message: 'Service URL', default: current, validate: (v) => /^https?:\/\/\S+$/.test(v.trim()) || 'an http(s) URL, e.g. http://127.0.0.1:8080' }, context);
    },
    async key() {
      const { password } = await import('@inquirer/prompts');
      return password({ message: 'API key (bw_…)', mask: '*', validate: (v) => v.trim() !== '' || 'paste the key' }, context);
    },
    async channel(choices, current) {
      const { select } = await import('@inquirer/prompts');
      const none = '';
      const picked = await select(
        { message: 'Default channel (used when --channel is left out)', choices: [...choices.map((c) => ({ value: c.key, name: c.label })), { value: none, name: 'none' }], default: current ?? choices[0]?.key ?? none },
        context,
      );
      return picked === none ? undefined : picked;
    },
  };
}
