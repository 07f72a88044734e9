// Compiled by `tsc -p test/tsconfig.json` (never run): the package's types
// accept what its README shows and refuse what they should.

import { Subscriber, context, deny, type Event, type Decision } from 'hookgate';
import { Kit, type Reply } from 'hookgate/testing';

const app = new Subscriber()
  .onPreToolUse((event: Event) => (event.runs('terraform', 'destroy') ? deny('no terraform destroy') : undefined))
  .onSessionStart(async () => context('hello from typescript'))
  .onEvent((event) => {
    const left: number | undefined = event.timeLeft();
    const names: string[] = event.commands.map((c) => c.name);
    const input: unknown = event.tool?.input;
    void [left, names, input, event.agent satisfies 'claude-code' | 'unspecified' | string];
    return undefined;
  });

export async function check(): Promise<void> {
  const kit = await Kit.start(app);
  const reply: Reply = await kit.shell('claude-code', 'terraform destroy');
  const decision: Decision | undefined = kit.decisions.at(-1);
  void [reply.says('no terraform destroy'), decision?.permission];
  await kit.stop();
  const server = await app.start('unix:policy.sock', { token: 'x', tls: { certFile: 'c', keyFile: 'k' } });
  await server.stop();
  // @ts-expect-error: a handler returns a Decision, not a string.
  app.onStop(() => 'deny');
  // @ts-expect-error: no such event kind.
  app.on('pre_tool', () => undefined);
}
