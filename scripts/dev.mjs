// `npm run dev`: the server from TypeScript sources, restarted on change, and Vite's dev server
// with hot reload proxying /api to it. Open the URL Vite prints.
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsx', 'watch', '--conditions=@pagewatch/source', 'server/src/main.ts'], {
    stdio: 'inherit',
    env: { PAGEWATCH_LOG_LEVEL: 'debug', ...process.env, PAGEWATCH_WEB_DIST: '' },
  }),
  spawn('npm', ['run', 'dev', '-w', 'web'], { stdio: 'inherit' }),
];

const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((c) =>
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  }),
);
