// The outer terminal's colours, asked as the app starts (issue 30): an agent asking for the
// background gets the outer terminal's, its answer to Rewind's own query never reaches the
// agent as keys, and a terminal that answers nothing leaves the agent the defaults once the
// deadline passed, its keys reaching it as before.
import { describe, expect, it } from 'vitest';
import { termSandbox } from '../helpers/termSandbox.js';
import { waitFor } from '../helpers/waitFor.js';
import { seamsEnv } from '../helpers/restoreKit.js';

const terminals = termSandbox('rewind-colours-');

// `cat -v` shows what reaches the agent's input (ESC as ^[), the pane's answer to its query first.
const agent = ['--', 'sh', '-c', "stty raw -echo; printf '\\033]11;?\\033\\\\'; exec cat -v"];

describe("the agent's background query", () => {
  it("is answered with the outer terminal's background, ended as asked; the outer terminal's answers reach the agent as no keys", async () => {
    const sb = terminals.sandbox();
    const session = terminals.start(agent, { cwd: sb.repo('light'), env: sb.env, cols: 80, rows: 12, colours: { foreground: 'rgb:0000/0000/0000', background: 'rgb:ffff/ffff/ffff' } });
    await session.waitFor((screen) => screen.includes('^[]11;rgb:ffff/ffff/ffff^[\\'), 10_000, 'the light background at the agent');
    session.write('x');
    await session.waitFor((screen) => screen.includes('^[\\x'), 5_000, 'a key after it');
    expect(session.text()).not.toContain('^[]10;');
    expect(session.text()).not.toContain('^[[?');
  });

  it('from a terminal that answers nothing: the defaults, after the deadline, and keys still reach the agent', async () => {
    const sb = terminals.sandbox();
    const session = terminals.start(agent, { cwd: sb.repo('mute'), env: sb.env, cols: 80, rows: 12, answers: false });
    await session.waitFor((screen) => screen.includes('^[]11;rgb:0000/0000/0000^[\\'), 10_000, 'the default background at the agent');
    session.write('x');
    await session.waitFor((screen) => screen.includes('^[\\x'), 5_000, 'a key after it');
  });

  it("from a terminal whose colour answers come after its wait ended: the defaults, and the late answers reach the agent as no keys", async () => {
    const sb = terminals.sandbox();
    let answered = 0;
    const colours = { foreground: 'rgb:0000/0000/0000', background: 'rgb:ffff/ffff/ffff', lateMs: 1_000, answered: () => (answered += 1) };
    // Its device attributes come at once (they end Rewind's wait), its colours a second later.
    const session = terminals.start(agent, { cwd: sb.repo('late'), env: sb.env, cols: 80, rows: 12, colours });
    await session.waitFor((screen) => screen.includes('^[]11;rgb:0000/0000/0000^[\\'), 10_000, 'the default background at the agent');
    // A key typed after the late answers (the same input, in order): only it reaches the agent.
    await waitFor(() => answered === 2, 10_000, 'the late answers sent');
    session.write('x');
    await session.waitFor((screen) => screen.includes('^[\\x'), 5_000, 'a key after it');
    expect(session.text()).not.toContain('rgb:ffff');
  });

  it('keys typed while Rewind still waits for the colours (a terminal that answers nothing) reach the agent, in order', async () => {
    // The pane's answer to the agent's query and the early keys both reach it (which first is not told).
    const sb = terminals.sandbox();
    const env = { ...sb.env, ...seamsEnv({ REWIND_TEST_COLOUR_QUERY_MS: '4000' }) };
    const session = terminals.start(agent, { cwd: sb.repo('typed-early'), env, cols: 80, rows: 12, answers: false });
    await session.waitFor(/◈ rewind/, 10_000, 'the status line (the wait still on)');
    session.write('ab');
    session.write('c');
    await session.waitFor((screen) => screen.includes('abc') && screen.includes('^[]11;rgb:0000/0000/0000^[\\'), 15_000, 'the keys typed early and the answer');
  });
});

