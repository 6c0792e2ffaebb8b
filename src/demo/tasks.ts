// The demo agent's canned tasks: what it "does" to the sandbox project, as tool calls shaped
// like Claude Code's (Write, Edit, Bash), so Rewind sees them exactly as it sees Claude's.

export type Step =
  | { tool: 'Write'; file: string; content: string; say: string }
  | { tool: 'Edit'; file: string; old: string; new: string; say: string }
  | { tool: 'Bash'; command: string; say: string };

export interface Task {
  name: string;
  /** Words that pick it from a typed prompt. */
  words: readonly string[];
  steps: readonly Step[];
  done: string;
}

export const tasks: readonly Task[] = [
  {
    name: 'add a timeout to the server',
    words: ['timeout', 'server'],
    steps: [
      { tool: 'Edit', file: 'server.js', old: 'server.listen(port);', new: 'server.setTimeout(5_000);\nserver.listen(port);', say: 'A request now times out after 5 s.' },
      { tool: 'Write', file: 'server.config.json', content: '{\n  "timeoutMs": 5000\n}\n', say: 'And the timeout is configurable.' },
    ],
    done: 'The server has a 5 s timeout.',
  },
  {
    name: 'clean up the tests',
    words: ['clean', 'test'],
    steps: [
      { tool: 'Bash', command: 'rm -rf tests', say: 'Those tests looked old: removed them.' },
      { tool: 'Edit', file: 'package.json', old: '    "test": "node --test tests/"\n', new: '', say: 'And the test script that ran them.' },
    ],
    done: 'Cleaned up: no more tests. (To get them back: Esc Esc, ↑ to Bash rm -rf tests, Enter, f.)',
  },
  {
    name: 'write the docs',
    words: ['doc', 'readme', 'write'],
    steps: [
      { tool: 'Write', file: 'docs/usage.md', content: '# Usage\n\nStart the server with `node server.js`.\n', say: 'Wrote a usage page.' },
      { tool: 'Edit', file: 'README.md', old: '# demo-app\n', new: '# demo-app\n\nSee [the usage page](docs/usage.md).\n', say: 'And linked it from the README.' },
    ],
    done: 'The docs are written.',
  },
];

/** The task a prompt asks for: its number, or the first whose words it uses. */
export function taskFor(prompt: string): Task | undefined {
  const text = prompt.trim().toLowerCase();
  const number = Number(text);
  if (Number.isInteger(number) && number >= 1 && number <= tasks.length) return tasks[number - 1];
  return tasks.find((task) => task.words.some((word) => text.includes(word)));
}

/** The sandbox project the tasks work on. */
export const sandboxFiles: Record<string, string> = {
  'README.md': '# demo-app\n\nA tiny server to try Rewind on.\n',
  'server.js': "const http = require('node:http');\n\nconst port = Number(process.env.PORT ?? 3000);\nconst server = http.createServer((req, res) => res.end('hello\\n'));\nserver.listen(port);\n",
  'package.json': '{\n  "name": "demo-app",\n  "scripts": {\n    "test": "node --test tests/"\n  }\n}\n',
  'tests/server.test.js': "const test = require('node:test');\n\ntest('answers hello', () => {});\n",
  'tests/config.test.js': "const test = require('node:test');\n\ntest('reads the port', () => {});\n",
};
