import { main } from './main.js';

// The process entry of the CLI (bin/pagewatch.mjs starts it); main() itself never exits.
process.exitCode = await main(process.argv.slice(2));
