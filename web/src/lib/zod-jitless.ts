import { config } from 'zod';

// Zod 4 decides on its JIT parser by trying `new Function` when the first object schema is
// made; the CSP forbids eval, so that try is reported as a violation. Imported first by
// main.tsx: the contract's schemas are made when their modules load.
config({ jitless: true });
