// Captures Claude Code's real transcripts for the transcript-cut tests
// (test/agents/claudeTranscript.test.ts): the pinned release, headless, against the fake
// model, with a hook that keeps each payload and the transcript as it stood at that call.
// Writes test/fixtures/transcripts/claude/, the sandbox's paths replaced by /SANDBOX, the
// checkout's by /REPO.
//   npx tsx test/agents/captureTranscripts.ts
import fs from 'node:fs';
import path from 'node:path';
import { claudeSetup, createWorld, runHeadless, shellQuote } from './harness.js';
import { repoRoot } from './world.js';

const out = path.join(repoRoot, 'test', 'fixtures', 'transcripts', 'claude');
const hook = path.join(repoRoot, 'test', 'fixtures', 'hooks', 'snapshotTranscript.sh');

const world = await createWorld((root) => [
  {
    prompt: 'Parallel prompt',
    root,
    steps: [
      { say: 'I write both at once.', tool: 'write', path: 'a.txt', content: 'a\n', also: [{ tool: 'write', path: 'b.txt', content: 'b\n' }] },
      { say: 'Now I check them.', tool: 'shell', command: 'cat a.txt b.txt' },
      { text: 'Both written.' },
    ],
  },
  { prompt: 'Second prompt', root, steps: [{ tool: 'shell', command: 'echo c > c.txt' }, { text: 'Made c.' }] },
  { prompt: 'Fourth prompt', root, steps: [{ tool: 'write', path: 'd.txt', content: 'd\n' }, { text: 'Made d.' }] },
]);
try {
  const calls = path.join(world.sandbox.base, 'calls');
  fs.mkdirSync(calls);
  const command = (event: string) => ['sh', hook, calls, event].map(shellQuote).join(' ');
  const hooks = Object.fromEntries(['PreToolUse', 'UserPromptSubmit', 'PreCompact', 'SessionStart'].map((event) => [event, [{ hooks: [{ type: 'command' as const, command: command(event), timeout: 30 }] }]]));
  const setup = claudeSetup(world, { hooks });
  let session: string | undefined;
  const run = async (prompt: string) => {
    const start = setup.headless(prompt);
    if (session) start.args.push('--resume', session);
    const done = await runHeadless(start);
    if (done.code !== 0) throw new Error(`${prompt}: exit ${done.code}\n${done.stdout}\n${done.stderr}`);
    const projects = path.join(setup.configDirs[0] ?? '', 'projects');
    const dir = path.join(projects, fs.readdirSync(projects)[0] ?? '');
    session ??= fs.readdirSync(dir).find((file) => file.endsWith('.jsonl'))?.replace(/\.jsonl$/, '');
    return path.join(dir, `${session}.jsonl`);
  };
  await run('Parallel prompt: write a and b');
  await run('Second prompt: make c');
  await run('/compact');
  const transcript = await run('Fourth prompt: make d');
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  // The sandbox's paths (and Claude's slug of them) and this checkout's, made stable.
  const slug = (dir: string) => dir.replace(/[^a-zA-Z0-9]/g, '-');
  const clean = (text: string) => text.replaceAll(world.sandbox.base, '/SANDBOX').replaceAll(slug(world.sandbox.base), '-SANDBOX').replaceAll(repoRoot, '/REPO');
  fs.writeFileSync(path.join(out, 'session.jsonl'), clean(fs.readFileSync(transcript, 'utf8')));
  const names = fs.readdirSync(calls).sort();
  let n = 0;
  for (const name of names.filter((file) => file.endsWith('.payload.json'))) {
    const stem = name.replace(/\.payload\.json$/, '');
    const label = `${String(++n).padStart(2, '0')}-${stem.replace(/^\d+-/, '')}`;
    fs.writeFileSync(path.join(out, `${label}.payload.json`), clean(fs.readFileSync(path.join(calls, name), 'utf8')));
    if (fs.existsSync(path.join(calls, `${stem}.transcript.jsonl`))) fs.writeFileSync(path.join(out, `${label}.transcript.jsonl`), clean(fs.readFileSync(path.join(calls, `${stem}.transcript.jsonl`), 'utf8')));
  }
  console.log(`${names.length} files from ${world.model.requests.length} requests into ${out}`);
} finally {
  await world.close();
}
