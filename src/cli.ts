#!/usr/bin/env node
import { processIO } from './commands/shared/io.js';
import { run } from './cli/main.js';

process.exitCode = await run(process.argv.slice(2), processIO());
