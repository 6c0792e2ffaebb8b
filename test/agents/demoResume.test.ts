// The demo agent runs as `node <script>`: started again on a restored conversation, the
// script stays first and `--resume <id>` follows it (not `node --resume …`, which Node refuses).
import { describe, expect, it } from 'vitest';
import { demoAgent } from '../../src/agents/demo/adapter.js';

describe('the demo agent resumed', () => {
  it('keeps its script first, drops an earlier resume, and resumes the rebuilt session', () => {
    const resume = demoAgent.conversation?.resumeArgs;
    expect(resume?.(['/x/dist/demo/agent.js'], 'new-id')).toEqual(['/x/dist/demo/agent.js', '--resume', 'new-id']);
    expect(resume?.(['/x/dist/demo/agent.js', '--resume', 'old-id'], 'new-id')).toEqual(['/x/dist/demo/agent.js', '--resume', 'new-id']);
    expect(resume?.(['/x/dist/demo/agent.js'], undefined)).toEqual(['/x/dist/demo/agent.js']);
  });
});
