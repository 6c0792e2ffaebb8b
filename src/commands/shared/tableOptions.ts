// Options several commands of the command table (table.ts) share.

export const json = (what: string) => ({ type: 'boolean', help: `print ${what}` }) as const;
export const yes = { type: 'boolean', short: 'y', help: 'do not ask; without a terminal to ask in, --yes is required' } as const;
export const dryRun = (what: string) => ({ type: 'boolean', help: what }) as const;
export const nameStatus = { type: 'boolean', help: "each file's name and how it changed (git's --name-status), not the diff" } as const;
