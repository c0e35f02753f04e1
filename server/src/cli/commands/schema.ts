import fs from 'node:fs';
import path from 'node:path';
import { configJsonSchema } from '../../config-as-code/json-schema.js';
import type { RegisterCommand } from './index.js';

/** `pagewatch schema [-o file]`: the JSON Schema editors validate and complete files with. */
export const registerSchema: RegisterCommand = (program, contextOf) => {
  program
    .command('schema')
    .description('print (or write) the JSON Schema of configuration files, for editors')
    .option('-o, --output <file>', 'write it to this file instead of standard output')
    .action((opts: { output?: string }, cmd) => {
      const ctx = contextOf(cmd);
      const text = `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
      if (!opts.output) return ctx.out(text);
      const file = path.resolve(ctx.cwd, opts.output);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      ctx.out(`Wrote ${opts.output}.\n`);
    });
};
