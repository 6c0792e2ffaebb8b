// The demo agent: a small pretend coding agent for trying Rewind without an account. It reads
// prompts at its own prompt, "works" on the files with canned tasks (writes, edits, a shell
// command that deletes tests) and, before each step, runs its hooks exactly as Claude Code
// does: it takes `--settings`, sends the same payload shapes, keeps the same transcript
// format, and resumes with `--resume <id>`. So Rewind handles it through Claude's adapter.
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { readSettings, runHooks } from './hooks.js';
import { taskFor, tasks, type Step } from './tasks.js';
import { projectSlug, Transcript } from './transcript.js';

interface Options {
  settings: string[];
  resume?: string;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { settings: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--settings') options.settings.push(argv[++i] ?? '{}');
    else if (arg.startsWith('--settings=')) options.settings.push(arg.slice('--settings='.length));
    else if (arg === '--resume') options.resume = argv[++i];
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write('rewind-demo-agent [--settings JSON|FILE]... [--resume SESSION-ID]\n');
      process.exit(0);
    }
  }
  return options;
}

const bold = (text: string) => (process.env.NO_COLOR ? text : `\x1b[1m${text}\x1b[0m`);
const dim = (text: string) => (process.env.NO_COLOR ? text : `\x1b[2m${text}\x1b[0m`);
const stepPauseMs = Number(process.env.REWIND_DEMO_STEP_MS ?? 250);

function target(step: Step): string {
  return step.tool === 'Bash' ? step.command : step.file;
}

function inputOf(step: Step, cwd: string): Record<string, unknown> {
  switch (step.tool) {
    case 'Write':
      return { file_path: path.join(cwd, step.file), content: step.content };
    case 'Edit':
      return { file_path: path.join(cwd, step.file), old_string: step.old, new_string: step.new, replace_all: false };
    case 'Bash':
      return { command: step.command, description: step.say };
  }
}

/** Does one step to the files; returns what the tool answers. */
function perform(step: Step, cwd: string): string {
  switch (step.tool) {
    case 'Write': {
      const file = path.join(cwd, step.file);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, step.content);
      return `wrote ${step.file}`;
    }
    case 'Edit': {
      const file = path.join(cwd, step.file);
      const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      if (!text.includes(step.old)) return `could not find the text to change in ${step.file}`;
      fs.writeFileSync(file, text.replace(step.old, step.new));
      return `edited ${step.file}`;
    }
    case 'Bash': {
      const run = spawnSync('sh', ['-c', step.command], { cwd, encoding: 'utf8' });
      return `exit ${run.status}${run.stdout ? `\n${run.stdout}` : ''}`;
    }
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const settings = readSettings(options.settings);
  const cwd = process.cwd();
  const configDir = process.env.REWIND_DEMO_CONFIG_DIR || path.join(os.tmpdir(), `rewind-demo-agent-${process.getuid?.() ?? 'user'}`);
  const sessionId = options.resume ?? randomUUID();
  const file = path.join(configDir, 'projects', projectSlug(cwd), `${sessionId}.jsonl`);
  if (options.resume && !fs.existsSync(file)) {
    process.stderr.write(`No conversation found with session ID: ${options.resume}\n`);
    process.exit(1);
  }
  const transcript = new Transcript(file, sessionId, cwd);
  const base = () => ({ session_id: sessionId, transcript_path: file, cwd });
  await runHooks(settings, 'SessionStart', { ...base(), hook_event_name: 'SessionStart', source: options.resume ? 'resume' : 'startup' }, cwd);

  process.stdout.write(`${bold('Rewind demo agent')}: a pretend coding agent. Pick a task (its number, or say it):\n`);
  tasks.forEach((task, index) => process.stdout.write(`  ${index + 1}  ${task.name}\n`));
  for (const { role, text } of Transcript.read(file)) process.stdout.write(dim(`${role === 'user' ? '>' : '●'} ${text}\n`));

  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, prompt: '> ' });
  let working = false;
  let interrupts = 0;
  const leave = () => {
    process.stdout.write(`\nTo resume this conversation: rewind-demo-agent --resume ${sessionId}\n`);
    process.exit(0);
  };
  rl.on('SIGINT', () => {
    if (working) return;
    if (++interrupts >= 2) leave();
    process.stdout.write(dim('\n(Ctrl-C again to quit)\n'));
    rl.prompt();
  });
  rl.on('close', leave);
  rl.prompt();
  for await (const line of rl) {
    interrupts = 0;
    const prompt = line.trim();
    if (prompt === '') {
      rl.prompt();
      continue;
    }
    working = true;
    const promptId = randomUUID();
    const { allowed, context } = await runHooks(settings, 'UserPromptSubmit', { ...base(), prompt_id: promptId, hook_event_name: 'UserPromptSubmit', prompt }, cwd);
    // What a prompt hook added (Rewind's note after a files-only restore), as the agent takes it in.
    for (const note of context) process.stdout.write(dim(`  (with the prompt: ${note})\n`));
    if (allowed) {
      transcript.prompt(prompt, promptId);
      const task = taskFor(prompt);
      if (!task) {
        const answer = `I only know these tasks: ${tasks.map((known, index) => `${index + 1} ${known.name}`).join(', ')}.`;
        transcript.say(answer);
        process.stdout.write(`● ${answer}\n`);
      } else {
        for (const [index, step] of task.steps.entries()) {
          const id = `toolu_demo_${promptId.slice(0, 8)}_${index}`;
          process.stdout.write(`${bold(`● ${step.tool}`)} ${target(step)}\n`);
          transcript.toolUse(id, step.tool, inputOf(step, cwd));
          const { allowed: go } = await runHooks(settings, 'PreToolUse', { ...base(), prompt_id: promptId, hook_event_name: 'PreToolUse', tool_name: step.tool, tool_input: inputOf(step, cwd), tool_use_id: id }, cwd, step.tool);
          const result = go ? perform(step, cwd) : 'blocked by a hook';
          transcript.toolResult(id, result);
          process.stdout.write(dim(`  ${go ? step.say : result}\n`));
          if (stepPauseMs > 0) await new Promise((resolve) => setTimeout(resolve, stepPauseMs));
        }
        transcript.say(task.done);
        process.stdout.write(`● ${task.done}\n`);
      }
    }
    await runHooks(settings, 'Stop', { ...base(), prompt_id: promptId, hook_event_name: 'Stop', stop_hook_active: false }, cwd);
    working = false;
    rl.prompt();
  }
}

void main();
